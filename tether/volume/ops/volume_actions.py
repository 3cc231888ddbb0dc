"""Extending a volume, from the claim to its settlement.

The API claims ``extending`` and reserves the quota; the manager asks the
driver to grow the storage. Most extends end there. A file that a running
guest's QEMU holds can only be grown by that QEMU: the driver says so
(ExtendNeedsHypervisor), the manager records the target size and the
reservations in admin metadata and posts ``volume-extended`` to the
compute API, and the compute host answers with
``os-extend_volume_completion``. Every way out of ``extending`` is
:func:`settle`: one transaction, under the volume's row lock, that commits
or rolls back the reservations, sets the size and the status and removes
the two keys, or does nothing if another way out came first.

Nothing waits forever: :func:`settle_overdue` (a periodic task of the
volume service) settles a volume ``extending`` for longer than
``[DEFAULT] extend_completion_timeout`` from what the file on disk says.
"""

import datetime

from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils
from oslo_utils import timeutils

from tether.db.volume import attachment as db_attachments
from tether.db.volume import quota as db_quotas
from tether.db import session
from tether.db.volume import volume as db_volumes
from tether.drivers.volume import driver as base_driver
from tether import exception
from tether.objects import fields
from tether.objects.volume import volume as volume_obj
from tether import rpc
from tether.volume import compute_client

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


def _waiting(admin_metadata, volume_id, size):
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


@session.writer
def settle(context, volume_id, error, new_size=None, reservations=None,
           waiting=None):
    """Take the volume out of ``extending``; returns an :class:`Outcome`.

    ``new_size``/``reservations`` are the manager's, for an extend that
    did not wait for the hypervisor. Without them, those the waiting
    extend stored in admin metadata are used (the completion action);
    ``waiting`` True requires them, False refuses a waiting extend (the
    manager's own settle must not overtake the compute host), None takes
    either. Raises VolumeNotExtending when there is nothing to settle.
    """
    row = db_attachments.lock_volume(context, volume_id)
    if row.status != S.EXTENDING:
        raise exception.VolumeNotExtending(
            volume_id=volume_id, reason='its status is %s' % row.status)
    admin = db_volumes.admin_metadata(context, volume_id)
    stored = NEW_SIZE in admin or RESERVATIONS in admin
    if waiting is False and stored:
        raise exception.VolumeNotExtending(
            volume_id=volume_id, reason='it waits for the compute host')
    if new_size is None or stored:
        new_size, reservations = _waiting(admin, volume_id, row.size)
    old_size = row.size
    if error:
        db_quotas.rollback_in_transaction(context, reservations)
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
    db_volumes.transition(context, volume_id, values, [S.EXTENDING])
    # The rows as the updates left them (they bypass the session's copies).
    context.session.expire_all()
    volume = volume_obj.Volume.from_db(db_volumes.get(context, volume_id))
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
           waiting=None, host=None, why=None):
    """settle(), logged and notified; None if another way out came first."""
    try:
        outcome = settle(context, volume_id, error, new_size=new_size,
                         reservations=reservations, waiting=waiting)
    except exception.VolumeNotExtending as exc:
        LOG.info('Extend of volume %s was settled already: %s', volume_id,
                 exc)
        return None
    _report(context, outcome, host, why)
    return outcome


def _report(context, outcome, host=None, why=None):
    """Log how an extend ended; notify one that succeeded."""
    if outcome.error:
        LOG.error('Extend of volume %s to %sG failed%s', outcome.volume.id,
                  outcome.new_size, ': %s' % why if why else '')
    else:
        LOG.info('Volume %s extended from %sG to %sG', outcome.volume.id,
                 outcome.old_size, outcome.new_size)
    _notify(context, outcome, host)


# The completion action (API process) -----------------------------------------

def complete(context, volume_id, error):
    """os-extend_volume_completion: the compute host's answer (unlike
    finish(), a volume with nothing to settle is the caller's error)."""
    outcome = settle(context, volume_id, error, waiting=True)
    _report(context, outcome,
            why='its compute host could not grow it' if error else None)
    return outcome.volume


# The manager's flow ----------------------------------------------------------

def _instances(context, volume_id):
    """The servers the volume is attached to (attachments with one)."""
    return sorted({a.instance_uuid
                   for a in db_attachments.get_for_volume(context, volume_id)
                   if a.instance_uuid and
                   a.attach_status == fields.VolumeAttachStatus.ATTACHED})


def extend_volume(context, driver, host, volume_id, new_size, reservations):
    """Grow the storage; settle, or hand the extend to the hypervisor."""
    try:
        volume = volume_obj.Volume.from_db(db_volumes.get(context,
                                                          volume_id))
    except exception.VolumeNotFound:
        return
    if volume.status != S.EXTENDING:
        LOG.info('Volume %s is no longer extending; nothing to do',
                 volume_id)
        return
    try:
        driver.extend_volume(volume, new_size)
    except exception.ExtendNeedsHypervisor:
        _hand_to_hypervisor(context, host, volume, new_size, reservations)
        return
    except Exception as exc:
        LOG.exception('Extending volume %s to %sG failed', volume_id,
                      new_size)
        finish(context, volume_id, True, new_size, reservations,
               waiting=False, host=host, why=exc)
        return
    if finish(context, volume_id, False, new_size, reservations,
              waiting=False, host=host):
        # Guests see the new size once their hypervisor is told.
        for instance_uuid in _instances(context, volume_id):
            _post_event(context, instance_uuid, volume_id)


def _post_event(context, instance_uuid, volume_id):
    """volume-extended; an error for the caller to act on, or None."""
    client = compute_client.as_service(context)
    if client is None:
        return 'no compute API is configured ([compute] section)'
    try:
        client.volume_extended(instance_uuid, volume_id)
    except (compute_client.ComputeUnavailable,
            compute_client.EventRefused) as exc:
        LOG.warning('volume-extended of volume %s for server %s: %s',
                    volume_id, instance_uuid, exc)
        return str(exc)
    return None


@session.writer
def _record_waiting(context, volume_id, new_size, reservations):
    """The servers of a volume still ``extending`` (None if it is not);
    attached to exactly one, the target and the reservations are stored
    for its compute host, in the same transaction."""
    row = db_attachments.lock_volume(context, volume_id)
    if row.status != S.EXTENDING:
        return None
    instances = _instances(context, volume_id)
    if len(instances) == 1:
        db_volumes.admin_metadata_set(context, volume_id, {
            NEW_SIZE: str(new_size),
            RESERVATIONS: jsonutils.dumps(list(reservations))})
    return instances


def _hand_to_hypervisor(context, host, volume, new_size, reservations):
    instances = _record_waiting(context, volume.id, new_size, reservations)
    if instances is None:
        LOG.info('Volume %s is no longer extending; nothing to do',
                 volume.id)
        return
    if len(instances) != 1:
        why = ('a hypervisor holds the volume file, and only a volume '
               'attached to exactly one server can be grown by its '
               'hypervisor (it is attached to %d)' % len(instances))
        finish(context, volume.id, True, new_size, reservations,
               waiting=False, host=host, why=why)
        return
    LOG.info('Volume %s is held by the guest of server %s: asking its '
             'compute host to grow it to %sG', volume.id, instances[0],
             new_size)
    why = _post_event(context, instances[0], volume.id)
    if why:
        finish(context, volume.id, True, waiting=True, host=host,
               why='the compute service was not told: %s' % why)


# Settlement of what waited too long ---------------------------------------

def _target(context, volume):
    """(new_size, reservations) of an unsettled extend: the stored ones,
    else the volume's reservations (a cast that never reached us)."""
    try:
        return _waiting(volume.admin_metadata, volume.id, volume.size)
    except exception.VolumeNotExtending:
        pass
    uuids = db_quotas.get_reservations_for(context, volume.id)
    delta = db_quotas.reservation_delta(context, uuids, 'gigabytes')
    return volume.size + delta, uuids


def _has_size(driver, volume, new_size):
    """Whether the volume's storage already has ``new_size`` GiB."""
    try:
        return driver.get_volume_size(volume) == new_size * base_driver.GiB
    except Exception:
        LOG.exception('Could not read the size of volume %s', volume.id)
        return False


def settle_overdue(context, driver, host, timeout=None):
    """Settle the volumes of ``host`` extending for over ``timeout`` s.

    The file's virtual size decides: already the new size, the extend
    happened (commit); otherwise it did not (roll back, error_extending).
    Returns how many were settled.
    """
    timeout = CONF.extend_completion_timeout if timeout is None else timeout
    before = timeutils.utcnow() - datetime.timedelta(seconds=timeout)
    count = 0
    for row in db_volumes.get_all_by_host(context, host, [S.EXTENDING],
                                          unchanged_since=before):
        volume = volume_obj.Volume.from_db(row)
        new_size, reservations = _target(context, volume)
        grown = _has_size(driver, volume, new_size)
        LOG.warning('Volume %s has been extending for over %ss: settling it '
                    'from its file, which is %sthe new size %sG', volume.id,
                    timeout, '' if grown else 'not ', new_size)
        if finish(context, volume.id, not grown, new_size, reservations,
                  host=host, why='no completion came in %ss' % timeout):
            count += 1
    return count


# Reconciliation after a restart ---------------------------------------------

def reconcile(context, driver, host, volume):
    """An ``extending`` volume found when tether-volume starts.

    An extend waiting for its compute host keeps waiting: the host may
    still answer, and settle_overdue ends the wait. Any other was cut
    short in this service: if the storage already has the new size, it is
    committed; otherwise its reservations are rolled back and the volume
    returns to its previous status (the extend did not happen and may be
    retried).
    """
    if NEW_SIZE in volume.admin_metadata:
        LOG.info('Volume %s waits for its compute host to extend it',
                 volume.id)
        return
    new_size, reservations = _target(context, volume)
    if new_size > volume.size and _has_size(driver, volume, new_size):
        finish(context, volume.id, False, new_size, reservations,
               waiting=False, host=host)
    else:
        abandon(context, volume.id, reservations)


@session.writer
def abandon(context, volume_id, reservations):
    """An extend that did not happen: roll back, previous status."""
    row = db_attachments.lock_volume(context, volume_id)
    if row.status != S.EXTENDING:
        return
    db_quotas.rollback_in_transaction(context, reservations)
    db_volumes.transition(
        context, volume_id, {'status': row.previous_status or S.AVAILABLE,
                             'previous_status': S.EXTENDING},
        [S.EXTENDING])
