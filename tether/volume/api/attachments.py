"""Business rules of volume attachments; runs in the API process.

Each step claims the attachment (and, for a reservation, the volume) with
one conditional UPDATE under the volume's row lock, then the volume's
status follows its attachments (tether.volume.attachment_state). Work on
the backend goes to the volume manager as a synchronous RPC call.
"""

from oslo_config import cfg
from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_serialization import jsonutils
from oslo_utils import timeutils
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import volume as db_volumes
from tether.volume import attachment_state as state
from tether.volume import compute_client
from tether.volume import exception
from tether.volume import rpcapi

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
AS = state.AS
S = state.S
SORT_KEYS = db_attachments.SORT_KEYS


# Reads ----------------------------------------------------------------------

def get(context, attachment_id):
    return db_attachments.get(context, attachment_id, context.project_scope)


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    return db_attachments.get_all(
        context, context.list_scope(all_tenants, project_id),
        filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'), offset=offset)


def get_for_volume(context, volume_id):
    return db_attachments.get_for_volume(context, volume_id)


def _volume(context, volume_id):
    return db_volumes.get(context, volume_id)


def shared_connections(context, attachment, volume=None):
    """IDs of the other attachments that share this one's host connection
    (same consumer host, same share); see doc/source/attachments.rst.

    The compute service (a service role) and administrators see them all:
    the host's connection is theirs. Anyone else sees those of their own
    project.
    """
    if not attachment.attached_host:
        return []
    volume = volume or _volume(context, attachment.volume_id)
    rows = db_attachments.sharing(context, attachment, volume, state.LIVE)
    if not (context.is_admin or context.is_service):
        rows = [r for r in rows if r.project_id == context.project_id]
    return [r.id for r in rows]


# Create (reserve) -----------------------------------------------------------

def _refusal(context, volume, instance_uuid):
    """Why ``volume`` (locked) cannot take another attachment."""
    if volume.status not in state.FOLLOWS_ATTACHMENTS:
        return exception.InvalidVolume(
            reason='volume %s is %s; it can be attached only when it is '
                   'available (or in-use, if it is multiattach)'
                   % (volume.id, volume.status))
    other = db_attachments.first_of_volume(context, volume.id)
    if other is None:
        return exception.InvalidVolumeStatus(
            volume_id=volume.id, status=volume.status, expected=S.AVAILABLE)
    what = 'attachment %s (%s%s)' % (
        other.id, other.attach_status,
        ', instance %s' % other.instance_uuid if other.instance_uuid else '')
    return exception.InvalidVolume(
        reason='volume %s is %s and not multiattach: it already has %s. A '
               'volume of a type with the extra spec multiattach="<is> '
               'True" can have several attachments'
               % (volume.id, volume.status, what))


@session.VOLUME.writer
def _reserve(context, volume_id, instance_uuid, mode):
    volume = db_attachments.lock_volume(context, volume_id,
                                        context.project_scope)
    if volume.multiattach:
        won = db_volumes.conditional_update(
            context, volume_id, {}, state.FOLLOWS_ATTACHMENTS)
    else:
        won = db_volumes.conditional_update(
            context, volume_id, {}, [S.AVAILABLE],
            extra=(db_attachments.no_attachments(),))
        if not won and instance_uuid:
            # The same instance attached again (a migration, LP 1694530):
            # allowed next to its attachment that is already attached.
            won = db_volumes.conditional_update(
                context, volume_id, {}, [S.IN_USE],
                extra=(db_attachments.has_attachment_for(
                    instance_uuid, [AS.ATTACHED]),))
        if not won and instance_uuid:
            # Or reserved for it (a rebuild that failed after it swapped
            # the root attachment, done again), as Cinder allows it.
            won = db_volumes.conditional_update(
                context, volume_id, {}, [S.RESERVED],
                extra=(db_attachments.has_attachment_for(
                    instance_uuid, [AS.RESERVED]),))
    if not won:
        raise _refusal(context, volume, instance_uuid)
    attachment = db_attachments.insert(context, {
        'id': uuidutils.generate_uuid(), 'volume_id': volume_id,
        'instance_uuid': instance_uuid, 'attach_status': AS.RESERVED,
        'attach_mode': mode})
    state.recompute(context, volume_id)
    # As a read of it would give it now (the volume's status changed,
    # not the row): the caller needs no read of its own.
    return attachment


def create(context, volume, instance_uuid=None, connector=None, mode=None):
    """Reserve the volume for a new attachment; connect it if a connector
    is given. Returns the attachment."""
    if connector:
        rpcapi.get().check_attachment_calls('connecting an attachment')
    attachment = _reserve(context, volume.id, instance_uuid, mode)
    if connector:
        return update(context, attachment, connector)
    return attachment


# Update (connect) and complete ----------------------------------------------

@session.VOLUME.writer
def _claim_connect(context, attachment, connector):
    """Claim the connect of ``attachment``; ``connector['mode']`` becomes
    ``ro`` for a volume whose admin metadata says ``readonly`` (Cinder's
    deprecated flag, os-update_readonly_flag, which overrides the mode:
    it cannot change while the volume has an attachment)."""
    volume = db_attachments.lock_volume(context, attachment.volume_id)
    if db_volumes.admin_metadata(context, volume.id).get(
            'readonly') == 'True':
        connector['mode'] = 'ro'
    if volume.status not in state.FOLLOWS_ATTACHMENTS:
        if 'error' in volume.status:
            raise exception.AttachmentConflict(
                attachment_id=attachment.id,
                reason='volume %s is %s' % (volume.id, volume.status))
        raise exception.InvalidVolumeStatus(
            volume_id=volume.id, status=volume.status,
            expected='reserved, attaching or in-use')
    host = connector.get('host')
    if not volume.multiattach and host:
        for other in db_attachments.get_for_volume(context, volume.id):
            if (other.id != attachment.id and other.attached_host == host
                    and other.attach_status in state.LIVE):
                raise exception.AttachmentConflict(
                    attachment_id=attachment.id,
                    reason='volume %s is not multiattach and attachment %s '
                           'already connects it to host %s'
                           % (volume.id, other.id, host))
    won = db_attachments.conditional_update(
        context, attachment.id,
        {'attach_status': AS.ATTACHING,
         'connector': jsonutils.dumps(connector),
         'attached_host': host, 'mountpoint': connector.get('mountpoint'),
         'attach_mode': connector['mode']},
        [AS.RESERVED])
    if not won:
        current = db_attachments.get(context, attachment.id)
        raise exception.InvalidAttachmentStatus(
            attachment_id=attachment.id, status=current.attach_status,
            action='an update with a connector', expected='reserved')
    state.recompute(context, volume.id)
    return volume


def _give_up_connect(context, attachment):
    """After a failed call: the attachment is error_attaching, unless the
    manager recorded its connection after all (or it is gone)."""
    state.change(context, attachment.id, attachment.volume_id,
                 {'attach_status': AS.ERROR_ATTACHING}, [AS.ATTACHING],
                 extra=[db_attachments.not_connected()])
    try:
        return get(context, attachment.id)
    except exception.AttachmentNotFound:
        return None


def update(context, attachment, connector):
    """Connect a reserved attachment: the manager asks the driver."""
    mode = attachment.attach_mode or connector.get('mode') or 'rw'
    connector = dict(connector, mode=mode)
    rpcapi.get().check_attachment_calls('connecting an attachment')
    volume = _claim_connect(context, attachment, connector)
    return connect_claimed(context, volume, attachment, connector)


def connect_claimed(context, volume, attachment, connector):
    """The manager connects an attachment claimed ``attaching`` with
    ``connector`` (a synchronous call); the attachment as it is then. A
    failure leaves it ``error_attaching`` (AttachmentConnectFailed)."""
    try:
        rpcapi.get().attachment_update(context, volume, connector,
                                       attachment.id)
    except Exception as exc:  # noqa: BLE001 - every failure settles below
        if isinstance(exc, messaging.MessagingTimeout):
            reason = ('the volume service did not answer within %d seconds'
                      % CONF.rpc_response_timeout_volume)
        else:
            reason = 'the volume service reported an error; its log says why'
        LOG.warning('Connecting attachment %s failed: %s', attachment.id,
                    exc)
        current = _give_up_connect(context, attachment)
        if current is None or current.attach_status == AS.DETACHED:
            raise exception.AttachmentNotFound(attachment_id=attachment.id)
        if current.attach_status != AS.ATTACHING:
            raise exception.AttachmentConnectFailed(
                volume_id=volume.id, attachment_id=attachment.id,
                reason=reason)
        return current
    return get(context, attachment.id)


@session.VOLUME.writer
def complete(context, attachment_id, authorize=None):
    """``attaching`` (connected) -> ``attached``; the volume is in-use.

    One transaction reads the attachment (the caller's project's, as
    :func:`get`), lets ``authorize(attachment)`` refuse the caller, and
    completes it: the API's request needs no read of its own first."""
    attachment = db_attachments.get(context, attachment_id,
                                    context.project_scope)
    if authorize is not None:
        authorize(attachment)
    if attachment.attach_status == AS.ATTACHED:
        return
    volume = db_attachments.lock_volume(context, attachment.volume_id)
    if volume.status not in state.FOLLOWS_ATTACHMENTS:
        raise exception.InvalidVolumeStatus(
            volume_id=volume.id, status=volume.status, expected='attaching')
    if not db_attachments.conditional_update(
            context, attachment_id, {'attach_status': AS.ATTACHED},
            [AS.ATTACHING], extra=[db_attachments.connected()]):
        current = db_attachments.get(context, attachment_id)
        raise exception.InvalidAttachmentStatus(
            attachment_id=attachment_id, status=current.attach_status,
            action='os-complete',
            expected='attaching with its connection made (update it with '
                     'a connector first)')
    state.recompute(context, attachment.volume_id)


# Delete ---------------------------------------------------------------------

def deletion_allowed(context, attachment, compute=None):
    """May this caller delete this attachment? (OSSA-2023-003)

    Yes for a caller with a service role (the compute service deleting
    what it detached), and for an attachment without an instance or
    without connection info (nothing in a guest uses it). Otherwise only
    the compute service knows whether the instance still uses it: it is
    asked through its API (``compute`` is a
    :class:`tether.volume.compute_client.ComputeClient`, or None when no
    compute API is configured: then nothing can use the attachment). When
    the compute API cannot answer, the delete is refused: a guest might
    still write to the volume.
    """
    if context.is_service:
        return True
    if not attachment.instance_uuid or not attachment.connection_info:
        return True
    if compute is None:
        return True
    try:
        return not compute.uses_attachment(
            context, attachment.instance_uuid, attachment.id,
            attachment.volume_id)
    except compute_client.ComputeUnavailable as exc:
        LOG.warning('Cannot ask the compute API whether instance %s uses '
                    'attachment %s: %s', attachment.instance_uuid,
                    attachment.id, exc)
        return False


def _delete_connected(context, attachment, volume):
    rpcapi.get().check_attachment_calls('disconnecting an attachment')
    claimed = state.change(
        context, attachment.id, attachment.volume_id,
        {'attach_status': state.BEING_DELETED,
         'detach_time': timeutils.utcnow()},
        [s for s in state.ALL])
    if not claimed:
        raise exception.AttachmentNotFound(attachment_id=attachment.id)
    try:
        rpcapi.get().attachment_delete(context, volume, attachment.id)
    except Exception as exc:  # noqa: BLE001 - the state says what is left
        LOG.warning('Disconnecting attachment %s failed: %s', attachment.id,
                    exc)
        try:
            status = get(context, attachment.id).attach_status
        except exception.AttachmentNotFound:
            return
        if isinstance(exc, messaging.MessagingTimeout):
            reason = ('the volume service did not answer within %d seconds; '
                      'it finishes the delete when it does, or when it '
                      'starts again' % CONF.rpc_response_timeout_volume)
        else:
            reason = 'the volume service reported an error; its log says why'
        raise exception.AttachmentDisconnectFailed(
            attachment_id=attachment.id, volume_id=volume.id, reason=reason,
            status=status)


def delete(context, attachment, force=False):
    """Delete (detach) an attachment; AttachmentInUse if a guest may
    still use it and the caller is not the compute service
    (:func:`deletion_allowed`), unless ``force`` (os-force_detach, an
    administrator's).

    Returns (the attachments the volume has left, the IDs of those that
    still share the deleted one's host connection).
    """
    if not force and not deletion_allowed(
            context, attachment, compute_client.as_service(context)):
        raise exception.AttachmentInUse(
            attachment_id=attachment.id,
            instance_uuid=attachment.instance_uuid)
    # Its reads in one transaction (with PostgreSQL each costs a ping, the
    # statement and a rollback).
    with session.VOLUME.reading(context):
        volume = _volume(context, attachment.volume_id)
        sharers = shared_connections(context, attachment, volume)
        if attachment.connected:
            # As it is now (404 if it is gone).
            attachment = get(context, attachment.id)
    removed = False
    if not attachment.connected:
        # Never connected: nothing on the backend, no call to make.
        removed = state.remove(context, attachment.id, attachment.volume_id,
                               [s for s in state.ALL
                                if s != state.BEING_DELETED],
                               extra=[db_attachments.never_connected()])
        if not removed:
            # Connected since it was read (404 if it is gone).
            attachment = get(context, attachment.id)
    if not removed:
        _delete_connected(context, attachment, volume)
    left = get_for_volume(context, attachment.volume_id)
    left_ids = {a.id for a in left}
    return left, [i for i in sharers if i in left_ids]
