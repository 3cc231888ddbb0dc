"""Extending a volume on the storage host: grow the storage, or hand the
extend to the hypervisor that holds it; settle what waited too long, and
what a restart interrupted.

A file that a running guest's QEMU holds can only be grown by that QEMU:
the driver says so (ExtendNeedsHypervisor), the manager records the
target size and the reservations in admin metadata and posts
``volume-extended`` to the compute API, and the compute host answers with
``os-extend_volume_completion`` (see tether.volume.extend_state, which
settles every way out of ``extending``).

Nothing waits forever: :func:`settle_overdue` (a periodic task of the
volume service) settles a volume ``extending`` for longer than
``[DEFAULT] extend_completion_timeout`` from what the file on disk says.
"""

import datetime

from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils
from oslo_utils import timeutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume as db_volumes
from tether.drivers.volume import driver as base_driver
from tether.objects import fields
from tether.volume import compute_client
from tether.volume import exception
from tether.volume import messages
from tether.volume import extend_state
from tether.volume.ops import left_over

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
NEW_SIZE = extend_state.NEW_SIZE
RESERVATIONS = extend_state.RESERVATIONS


def attached_servers(context, volume_id):
    """The servers the volume is attached to (attachments with one)."""
    return sorted({a.instance_uuid
                   for a in db_attachments.get_for_volume(context, volume_id)
                   if a.instance_uuid and
                   a.attach_status == fields.VolumeAttachStatus.ATTACHED})


def extend_volume(context, driver, host, volume_id, new_size, reservations):
    """Grow the storage; settle, or hand the extend to the hypervisor."""
    try:
        volume = db_volumes.get(context, volume_id)
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
        extend_state.finish(context, volume_id, True, new_size,
                            reservations, waiting=False, host=host, why=exc)
        return
    if extend_state.finish(context, volume_id, False, new_size,
                           reservations, waiting=False, host=host):
        # Guests see the new size once their hypervisor is told.
        for instance_uuid in attached_servers(context, volume_id):
            _post_event(context, instance_uuid, volume_id)


def _post_event(context, instance_uuid, volume_id, new_size=None):
    """volume-extended (with the size an extend waiting for the server's
    host asks for); an error for the caller to act on, or None."""
    client = compute_client.as_service(context)
    if client is None:
        return 'no compute API is configured ([compute] section)'
    try:
        client.volume_extended(instance_uuid, volume_id, new_size=new_size)
    except (compute_client.ComputeUnavailable,
            compute_client.EventRefused) as exc:
        LOG.warning('volume-extended of volume %s for server %s: %s',
                    volume_id, instance_uuid, exc)
        return str(exc)
    return None


@session.VOLUME.writer
def _record_waiting(context, volume_id, new_size, reservations):
    """The servers of a volume still ``extending`` (None if it is not);
    attached to exactly one, the target and the reservations are stored
    for its compute host, in the same transaction."""
    volume = db_attachments.lock_volume(context, volume_id)
    if volume.status != S.EXTENDING:
        return None
    instances = attached_servers(context, volume_id)
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
        extend_state.finish(context, volume.id, True, new_size,
                            reservations, waiting=False, host=host, why=why)
        return
    LOG.info('Volume %s is held by the guest of server %s: asking its '
             'compute host to grow it to %sG', volume.id, instances[0],
             new_size)
    why = _post_event(context, instances[0], volume.id, new_size=new_size)
    if why:
        extend_state.finish(
            context, volume.id, True, waiting=True, host=host,
            why='the compute service was not told: %s' % why,
            detail=messages.Detail.NOTIFY_COMPUTE_SERVICE_FAILED)


# Settlement of what waited too long ---------------------------------------

def _target(context, volume):
    """(new_size, reservations) of an unsettled extend: the stored ones,
    else the volume's reservations (a cast that never reached us)."""
    try:
        return extend_state.stored_target(volume.admin_metadata,
                                          volume.id, volume.size)
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


def settle_overdue(context, driver, host, timeout=None, stopping=None):
    """Settle the volumes of ``host`` extending for over ``timeout`` s.

    The file's virtual size decides: already the new size, the extend
    happened (commit); otherwise it did not (roll back, error_extending).
    A volume whose settling raises stays ``extending``, and the next
    round tries again. Returns how many were settled.
    """
    timeout = CONF.extend_completion_timeout if timeout is None else timeout
    before = timeutils.utcnow() - datetime.timedelta(seconds=timeout)

    def one(volume):
        new_size, reservations = _target(context, volume)
        grown = _has_size(driver, volume, new_size)
        LOG.warning('Volume %s has been extending for over %ss: settling it '
                    'from its file, which is %sthe new size %sG', volume.id,
                    timeout, '' if grown else 'not ', new_size)
        return extend_state.finish(context, volume.id, not grown, new_size,
                                   reservations, host=host,
                                   why='no completion came in %ss'
                                   % timeout) is not None

    return left_over.each(
        'extending volume',
        db_volumes.get_all_by_host(context, host, [S.EXTENDING],
                                   unchanged_since=before),
        one, stopping).taken_up


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
        extend_state.finish(context, volume.id, False, new_size,
                            reservations, waiting=False, host=host)
    else:
        extend_state.abandon(context, volume.id, reservations)
