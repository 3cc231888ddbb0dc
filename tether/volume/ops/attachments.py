"""What the volume manager does for attachments, as plain functions.

The API claimed each attachment before it called: ``attaching`` (with the
connector) for a connect, ``detached`` for a delete. A flow acts only if
the attachment is still in that state, so a message delivered again, or
one that arrives after reconciliation, does nothing.
"""

from oslo_log import log as logging
from oslo_serialization import jsonutils
from oslo_utils import timeutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import volume as db_volumes
from tether.volume import attachment_state as state
from tether.volume import exception
from tether.volume import messages
from tether.volume.ops import left_over
from tether.volume import qos

LOG = logging.getLogger(__name__)
AS = state.AS


def _fresh(context, attachment_id):
    try:
        return db_attachments.get(context, attachment_id)
    except exception.AttachmentNotFound:
        return None


def _volume(context, volume_id):
    return db_volumes.get(context, volume_id)


def _shares_volume_connection(context, attachment, volume):
    """Does another live attachment of this volume use the same host?"""
    return any(other.volume_id == attachment.volume_id for other in
               db_attachments.sharing(context, attachment, volume, state.LIVE))


def connect(context, driver, volume_id, attachment_id, connector):
    """Ask the driver for the connection info, with the front-end QoS
    specs of the volume's type, and record it.

    On a driver failure the attachment becomes ``error_attaching`` and the
    volume's status follows its other attachments.
    """
    # What it reads, in one transaction (each costs a database round trip
    # or three: with PostgreSQL, a ping, the statement, the rollback).
    with session.VOLUME.reading(context):
        attachment = _fresh(context, attachment_id)
        if attachment is None or attachment.attach_status != AS.ATTACHING \
                or attachment.connection_info:
            raise exception.InvalidAttachmentStatus(
                attachment_id=attachment_id,
                status=attachment.attach_status if attachment else 'deleted',
                action='connecting it', expected='attaching')
        volume = _volume(context, volume_id)
        # The limits the compute host applies, as Cinder's connectors
        # carry them (None: none).
        qos_specs = qos.for_connection(context, volume)
    try:
        info = driver.initialize_connection(volume, connector)
    except Exception as exc:
        LOG.exception('Connecting volume %s for attachment %s failed',
                      volume_id, attachment_id)
        messages.record(context, messages.Action.UPDATE_ATTACHMENT,
                        volume_id, volume.project_id,
                        detail=messages.Detail.ATTACH_ERROR)
        state.change(context, attachment_id, volume_id,
                     {'attach_status': AS.ERROR_ATTACHING}, [AS.ATTACHING],
                     extra=[db_attachments.not_connected()])
        raise exception.BackendOperationFailed(
            reason='connecting volume %s failed: %s'
                   % (volume_id, type(exc).__name__))
    info.setdefault('data', {})['qos_specs'] = qos_specs
    recorded = state.change(
        context, attachment_id, volume_id,
        {'connection_info': jsonutils.dumps(info),
         'attach_time': timeutils.utcnow()},
        [AS.ATTACHING], extra=[db_attachments.not_connected()])
    if not recorded:
        # Deleted or given up while the driver worked: undo what it did.
        LOG.warning('Attachment %s changed while it was connected; '
                    'disconnecting it again', attachment_id)
        attachment = _fresh(context, attachment_id)
        if attachment is None or not _shares_volume_connection(
                context, attachment, volume):
            driver.terminate_connection(volume, connector)
        raise exception.InvalidAttachmentStatus(
            attachment_id=attachment_id,
            status=attachment.attach_status if attachment else 'deleted',
            action='recording its connection', expected='attaching')
    return info


def disconnect(context, driver, volume_id, attachment_id):
    """Terminate the connection of a claimed attachment and remove it.

    The connection is terminated only if no other live attachment of the
    volume uses the same host (multiattach on one host shares it). On a
    driver failure the attachment becomes ``error_detaching``.
    """
    with session.VOLUME.reading(context):
        attachment = _fresh(context, attachment_id)
        if attachment is None or \
                attachment.attach_status != state.BEING_DELETED:
            LOG.info('Attachment %s is no longer being deleted; nothing to '
                     'do', attachment_id)
            return
        connector = attachment.connector
        if connector:
            volume = _volume(context, volume_id)
            shared = _shares_volume_connection(context, attachment, volume)
    if connector:
        if not shared:
            try:
                driver.terminate_connection(volume, connector)
            except Exception as exc:
                LOG.exception('Disconnecting attachment %s of volume %s '
                              'failed', attachment_id, volume_id)
                messages.record(context, messages.Action.UPDATE_ATTACHMENT,
                                volume_id, volume.project_id,
                                detail=messages.Detail.DETACH_ERROR)
                state.change(context, attachment_id, volume_id,
                             {'attach_status': AS.ERROR_DETACHING},
                             [state.BEING_DELETED])
                raise exception.BackendOperationFailed(
                    reason='disconnecting volume %s failed: %s'
                           % (volume_id, type(exc).__name__))
    state.remove(context, attachment_id, volume_id, [state.BEING_DELETED])


def reconcile(context, driver, host, stopping=None):
    """Settle the attachments this backend left half done; see the docs.

    * ``attaching`` with a connector but without connection info: the
      connect never finished (one without a connector is os-reserve's
      reservation, which waits for os-attach or os-unreserve);
      the attachment becomes ``error_attaching`` (the caller deletes it and
      attaches again) and the volume's status follows its attachments.
    * ``detached`` (a delete claimed it): the delete runs again; one the
      backend fails becomes ``error_detaching``.

    An attachment whose settling raises otherwise stays as it was, for
    the next start or the caller's delete; returns a
    tether.volume.ops.left_over.Tally.
    """
    def one(attachment):
        if attachment.attach_status == AS.ATTACHING:
            if not attachment.connector or attachment.connection_info:
                return False
            LOG.info('Attachment %s never finished connecting; marking it '
                     'error_attaching', attachment.id)
            return state.change(
                context, attachment.id, attachment.volume_id,
                {'attach_status': AS.ERROR_ATTACHING}, [AS.ATTACHING],
                extra=[db_attachments.not_connected()])
        LOG.info('Attachment %s was being deleted; deleting it again',
                 attachment.id)
        try:
            disconnect(context, driver, attachment.volume_id,
                       attachment.id)
        except exception.BackendOperationFailed:
            # (disconnect made it error_detaching and logged why.)
            LOG.warning('Could not finish deleting attachment %s: it is '
                        'error_detaching', attachment.id)
        return True

    return left_over.each(
        'attachment',
        db_attachments.get_all_on_backend(
            context, host, [AS.ATTACHING, state.BEING_DELETED]),
        one, stopping)
