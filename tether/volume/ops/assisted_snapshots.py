"""Snapshots of attached volumes, taken and deleted with the help of the
compute host of the volume's server (Cinder's remotefs online snapshots;
the compute side is ``os-assisted-volume-snapshots``).

The backend makes and names the files (tether.drivers.volume.
remotefs_assisted); the compute API is asked to switch or merge them in
the running (or stopped) guest, and the compute host answers with
``os-update_snapshot_status``: the snapshot's status as it was
(``creating``, ``deleting``) with progress ``90%`` when it is done, or
``error``/``error_deleting``. This process waits for that answer in the
database (the answer comes to the API process), then the backend
records the result. The progress is set to ``0%`` before each request,
so an answer to an earlier one is not taken for this one.

The volume's lock of the backend is held from the prepare to the finish:
its other snapshots' work waits. Every step may be run again after a
restart: the backend keeps what it made, and the compute host does
nothing more for a request it did already.
"""

import time

from oslo_config import cfg
from oslo_log import log as logging

from tether.db.volume import snapshot as db_snapshots
from tether.objects import fields
from tether.volume import compute_client
from tether.volume import exception
from tether.volume.ops import volume_actions

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
S = fields.SnapshotStatus
DONE = '90%'
# How often the snapshot's row is read while the compute host works: from
# POLL_FIRST seconds, growing to POLL_MAX (a live snapshot of the tiny
# test guest takes about 0.1 s; a merge of a big file, minutes).
POLL_FIRST = 0.05
POLL_MAX = 2.0


def needs_compute(context, volume):
    """Whether a server's hypervisor holds the volume's files (it is
    attached to one), so that only it can change them."""
    return bool(volume_actions.attached_servers(context, volume.id))


def _client(context, volume, snapshot, what):
    client = compute_client.as_service(context)
    if client is None:
        raise exception.AssistedSnapshotFailed(
            volume_id=volume.id, snapshot_id=snapshot.id, what=what,
            reason='no compute API is configured ([compute] section)')
    return client


def _ask(context, volume, snapshot, what, status, timeout, request):
    """Start over (progress 0%), send ``request`` (a call of the compute
    client), and wait until the compute host says it is done."""
    if not db_snapshots.conditional_update(context, snapshot.id,
                                           {'progress': '0%'}, [status]):
        raise exception.AssistedSnapshotFailed(
            volume_id=volume.id, snapshot_id=snapshot.id, what=what,
            reason='it is no longer %s' % status)
    try:
        request()
    except (compute_client.AssistRefused,
            compute_client.ComputeUnavailable) as exc:
        raise exception.AssistedSnapshotFailed(
            volume_id=volume.id, snapshot_id=snapshot.id, what=what,
            reason=str(exc))
    deadline = time.monotonic() + timeout
    interval = POLL_FIRST
    while True:
        try:
            found = db_snapshots.get(context, snapshot.id)
        except exception.SnapshotNotFound:
            found = None
        if found is None or found.status != status:
            raise exception.AssistedSnapshotFailed(
                volume_id=volume.id, snapshot_id=snapshot.id, what=what,
                reason='it is %s now' % (found.status if found else
                                         'gone'))
        if found.progress == DONE:
            return
        if time.monotonic() > deadline:
            raise exception.AssistedSnapshotFailed(
                volume_id=volume.id, snapshot_id=snapshot.id, what=what,
                reason='no answer in %d seconds' % timeout)
        time.sleep(interval)
        interval = min(interval * 2, POLL_MAX)


def take(context, driver, volume, snapshot):
    """Take ``snapshot`` of the attached ``volume``; raises if it was
    not taken (the caller makes it ``error``)."""
    what = 'take'
    client = _client(context, volume, snapshot, what)
    with driver.volume_lock(volume):
        create_info = driver.prepare_assisted_snapshot(volume, snapshot)
        if create_info is None:
            LOG.info('Snapshot %s of volume %s was already taken',
                     snapshot.id, volume.id)
            return
        try:
            _ask(context, volume, snapshot, what, S.CREATING,
                 CONF.assisted_snapshot_create_timeout,
                 lambda: client.create_volume_snapshot(volume.id,
                                                       create_info))
        except Exception:
            LOG.exception('Snapshot %s of attached volume %s was not taken',
                          snapshot.id, volume.id)
            driver.abandon_assisted_snapshot(volume, snapshot, create_info)
            raise
        driver.finish_assisted_snapshot(volume, snapshot, create_info)
    LOG.info('Snapshot %s of attached volume %s taken by its compute host',
             snapshot.id, volume.id)


def delete(context, driver, volume, snapshot):
    """Merge away ``snapshot`` of the attached ``volume``; raises if it
    was not (the caller makes it ``error_deleting``)."""
    what = 'merge'
    client = _client(context, volume, snapshot, what)
    with driver.volume_lock(volume):
        prepared = driver.prepare_assisted_snapshot_delete(volume, snapshot)
        if prepared is None:
            LOG.info('Snapshot %s of volume %s was already merged away',
                     snapshot.id, volume.id)
            return
        plan, merged = prepared
        if not merged:
            _ask(context, volume, snapshot, what, S.DELETING,
                 CONF.assisted_snapshot_delete_timeout,
                 lambda: client.delete_volume_snapshot(
                     snapshot.id, plan['delete_info']))
        driver.finish_assisted_snapshot_delete(volume, snapshot, plan)
    LOG.info('Snapshot %s of attached volume %s merged by its compute host',
             snapshot.id, volume.id)
