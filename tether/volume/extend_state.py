"""How a volume leaves ``extending``: the same rules in the API process
(the completion action, a reset) and in tether-volume (the end of an
extend, its timeout, its reconciliation).

The API claims ``extending`` and reserves the quota; the manager asks the
driver to grow the storage (tether.volume.ops.volume_actions). Most
extends end there. A file that a running guest's QEMU holds can only be
grown by that QEMU: the manager records the target size and the
reservations in admin metadata, and the compute host answers with
``os-extend_volume_completion``. Every way out of ``extending`` is
:func:`settle`: one transaction, under the volume's row lock, that commits
or rolls back the reservations, sets the size and the status and removes
the two keys, or does nothing if another way out came first; or
:func:`abandon`, for an extend that did not happen.
"""

from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.objects.volume import volume as volume_obj
from tether import rpc
from tether.volume import exception
from tether.volume import messages

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
NEW_SIZE = volume_obj.EXTEND_NEW_SIZE
RESERVATIONS = volume_obj.EXTEND_RESERVATIONS


class Outcome:
    """What :func:`settle` did (for the caller's notification and log)."""

    def __init__(self, volume, old_size, new_size, error):
        self.volume = volume
        self.old_size = old_size
        self.new_size = new_size
        self.error = error


def stored_target(admin_metadata, volume_id, size):
    """(new_size, reservations) an extend waiting for the hypervisor
    stored; VolumeNotExtending if they are missing or unusable."""
    if NEW_SIZE not in admin_metadata or RESERVATIONS not in admin_metadata:
        raise exception.VolumeNotExtending(
            volume_id=volume_id,
            reason='it is not waiting for a completion (its admin metadata '
                   'has no %s and %s)' % (NEW_SIZE, RESERVATIONS))
    try:
        new_size = int(admin_metadata[NEW_SIZE])
        reservations = jsonutils.loads(admin_metadata[RESERVATIONS])
    except ValueError as exc:
        raise exception.VolumeNotExtending(
            volume_id=volume_id,
            reason='its stored extend cannot be read: %s' % exc)
    if not (isinstance(reservations, list) and
            all(isinstance(r, str) for r in reservations)):
        raise exception.VolumeNotExtending(
            volume_id=volume_id,
            reason='%s is not a list of reservation ids' % RESERVATIONS)
    if new_size <= size:
        raise exception.VolumeNotExtending(
            volume_id=volume_id,
            reason='%s %sG is not larger than its size %sG'
                   % (NEW_SIZE, new_size, size))
    return new_size, reservations


@session.VOLUME.writer
def settle(context, volume_id, error, new_size=None, reservations=None,
           waiting=None, project_id=None, authorize=None, detail=None):
    """Take the volume out of ``extending``; returns an :class:`Outcome`.

    ``new_size``/``reservations`` are the manager's, for an extend that
    did not wait for the hypervisor. Without them, those the waiting
    extend stored in admin metadata are used (the completion action);
    ``waiting`` True requires them, False refuses a waiting extend (the
    manager's own settle must not overtake the compute host), None takes
    either. Raises VolumeNotExtending when there is nothing to settle.

    The volume is read once, under its lock: ``project_id`` limits the
    look-up to a project (VolumeNotFound otherwise), and ``authorize``,
    called with the volume before anything changes, may refuse the
    caller (the completion action's policy, on the volume it settles).
    A failed extend's user message (Cinder's action 007, ``detail`` or
    "the driver failed to extend") is written in the same transaction:
    who sees ``error_extending`` finds it.
    """
    volume = db_attachments.lock_volume(context, volume_id, project_id)
    if authorize is not None:
        authorize(volume)
    if volume.status != S.EXTENDING:
        raise exception.VolumeNotExtending(
            volume_id=volume_id, reason='its status is %s' % volume.status)
    admin = db_volumes.admin_metadata(context, volume_id)
    stored = NEW_SIZE in admin or RESERVATIONS in admin
    if waiting is False and stored:
        raise exception.VolumeNotExtending(
            volume_id=volume_id, reason='it waits for the compute host')
    if new_size is None or stored:
        new_size, reservations = stored_target(admin, volume_id, volume.size)
    old_size = volume.size
    if error:
        db_quotas.rollback_in_transaction(context, reservations)
        messages.record(context, messages.Action.EXTEND_VOLUME, volume_id,
                        volume.project_id,
                        detail=detail or messages.Detail.DRIVER_FAILED_EXTEND)
        values = {'status': S.ERROR_EXTENDING}
    else:
        db_quotas.commit_in_transaction(context, reservations)
        attached = bool(db_attachments.statuses_of_volume(context,
                                                          volume_id))
        values = {'status': S.IN_USE if attached else S.AVAILABLE,
                  'size': new_size}
    values['previous_status'] = S.EXTENDING
    db_volumes.admin_metadata_remove(context, volume_id,
                                     (NEW_SIZE, RESERVATIONS))
    db_volumes.transition(context, volume_id, values, [S.EXTENDING],
                          read_back=False)
    # The volume as the update left it, without reading it again: its
    # lock held, nothing else changed it.
    for field, value in values.items():
        setattr(volume, field, value)
    return Outcome(volume, old_size, new_size, error)


def _notify(context, outcome, host=None):
    """``volume.resize.end`` after a successful extend (as Cinder)."""
    if outcome.error:
        return
    volume = outcome.volume
    payload = {'volume_id': volume.id, 'tenant_id': volume.project_id,
               'user_id': volume.user_id, 'size': volume.size,
               'status': volume.status, 'host': volume.host,
               'availability_zone': volume.availability_zone,
               'volume_type': volume.volume_type_id,
               'display_name': volume.name,
               'created_at': str(volume.created_at)}
    try:
        rpc.get_notifier('volume.%s' % (host or CONF.host)).info(
            context, 'volume.resize.end', payload)
    except Exception:
        LOG.exception('Could not send volume.resize.end of volume %s',
                      volume.id)


def finish(context, volume_id, error, new_size=None, reservations=None,
           waiting=None, host=None, why=None, detail=None):
    """settle(), logged and notified (a failure with a user message of
    ``detail``); None if another way out came first."""
    try:
        outcome = settle(context, volume_id, error, new_size=new_size,
                         reservations=reservations, waiting=waiting,
                         detail=detail)
    except exception.VolumeNotExtending as exc:
        LOG.info('Extend of volume %s was settled already: %s', volume_id,
                 exc)
        return None
    report(context, outcome, host, why)
    return outcome


def report(context, outcome, host=None, why=None):
    """Log how an extend ended; notify one that succeeded (a failed
    one's user message is :func:`settle`'s)."""
    if outcome.error:
        LOG.error('Extend of volume %s to %sG failed%s', outcome.volume.id,
                  outcome.new_size, ': %s' % why if why else '')
    else:
        LOG.info('Volume %s extended from %sG to %sG', outcome.volume.id,
                 outcome.old_size, outcome.new_size)
    _notify(context, outcome, host)


@session.VOLUME.writer
def abandon(context, volume_id, reservations):
    """An extend that did not happen: roll back, previous status."""
    volume = db_attachments.lock_volume(context, volume_id)
    if volume.status != S.EXTENDING:
        return
    db_quotas.rollback_in_transaction(context, reservations)
    db_volumes.transition(
        context, volume_id, {'status': volume.previous_status or S.AVAILABLE,
                             'previous_status': S.EXTENDING},
        [S.EXTENDING])
