"""What the volume manager does for a snapshot (the API claimed it:
``creating`` or ``deleting``), as plain functions. A snapshot of a volume
attached to a server is the server's compute host's to take and merge
(assisted_snapshots.py).

Each acts only if the snapshot is still in the state its claim left it
in, so a redelivered message, or the reconciliation after a restart,
runs it again or does nothing. The backend's work on one volume's files
(its snapshots, its extend, its upload) is serialized by the driver.
"""

from oslo_log import log as logging

from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import exception
from tether.volume import messages
from tether.volume.ops import assisted_snapshots
from tether.volume.ops import left_over
from tether.volume import snapshot_state

LOG = logging.getLogger(__name__)
S = fields.SnapshotStatus
# The statuses a manager takes up again when it finds a snapshot of its
# volumes left in them.
LEFT_STATUSES = (S.CREATING, S.DELETING)


def _fresh(context, snapshot_id):
    try:
        return db_snapshots.get(context, snapshot_id)
    except exception.SnapshotNotFound:
        return None


def create_snapshot(context, driver, snapshot_id):
    """Take the snapshot on the backend; ``available`` then, ``error``
    (its quota given back) if the backend failed."""
    snapshot = _fresh(context, snapshot_id)
    if snapshot is None or snapshot.status != S.CREATING:
        LOG.info('Snapshot %s is no longer creating; nothing to do',
                 snapshot_id)
        return
    try:
        volume = db_volumes.get(context, snapshot.volume_id)
        if assisted_snapshots.needs_compute(context, volume):
            assisted_snapshots.take(context, driver, volume, snapshot)
        else:
            driver.create_snapshot(volume, snapshot)
    except Exception:
        LOG.exception('Creating snapshot %s of volume %s failed',
                      snapshot_id, snapshot.volume_id)
        messages.record(context, messages.Action.SNAPSHOT_CREATE,
                        snapshot_id, snapshot.project_id,
                        detail=messages.Detail.SNAPSHOT_CREATE_ERROR,
                        resource_type=messages.Resource.VOLUME_SNAPSHOT)
        snapshot_state.fail_create(context, snapshot)
        return
    if not db_snapshots.conditional_update(
            context, snapshot_id, {'status': S.AVAILABLE,
                                   'progress': '100%'}, [S.CREATING]):
        LOG.warning('Snapshot %s changed state while it was created',
                    snapshot_id)
        return
    LOG.info('Snapshot %s of volume %s taken', snapshot_id,
             snapshot.volume_id)


def delete_snapshot(context, driver, snapshot_id):
    """Remove the snapshot from the backend, then its row (its quota
    given back); ``error_deleting`` if the backend failed."""
    snapshot = _fresh(context, snapshot_id)
    if snapshot is None or snapshot.status != S.DELETING:
        return
    try:
        volume = db_volumes.get(context, snapshot.volume_id)
        if assisted_snapshots.needs_compute(context, volume):
            assisted_snapshots.delete(context, driver, volume, snapshot)
        else:
            driver.delete_snapshot(volume, snapshot)
    except Exception:
        LOG.exception('Deleting snapshot %s of volume %s failed',
                      snapshot_id, snapshot.volume_id)
        messages.record(context, messages.Action.SNAPSHOT_DELETE,
                        snapshot_id, snapshot.project_id,
                        detail=messages.Detail.SNAPSHOT_DELETE_ERROR,
                        resource_type=messages.Resource.VOLUME_SNAPSHOT)
        db_snapshots.conditional_update(
            context, snapshot_id, {'status': S.ERROR_DELETING},
            [S.DELETING])
        return
    snapshot_state.finish_delete(context, snapshot)
    LOG.info('Snapshot %s of volume %s deleted', snapshot_id,
             snapshot.volume_id)


def reconcile(context, driver, host, stopping=None):
    """Run again what a snapshot of this backend's volumes was left
    doing (creating, deleting), as if its message came again; a snapshot
    left ``deleting`` whose volume is being deleted with it (cascade) is
    the volume delete's to finish, one of a group snapshot its group
    snapshot's. A snapshot whose take-up raises stays as it was, for the
    next start or an administrator's reset; returns a
    tether.volume.ops.left_over.Tally."""
    def one(snapshot):
        volume = db_volumes.get(context, snapshot.volume_id)
        if volume.status == fields.VolumeStatus.DELETING:
            return False
        if snapshot.group_snapshot_id:
            # Its group snapshot's to take or delete with the others
            # (tether.volume.ops.group_snapshots.reconcile).
            return False
        LOG.info('Reconciling snapshot %s left %s', snapshot.id,
                 snapshot.status)
        if snapshot.status == S.CREATING:
            create_snapshot(context, driver, snapshot.id)
        else:
            delete_snapshot(context, driver, snapshot.id)
        return True

    return left_over.each(
        'snapshot',
        db_snapshots.get_all_by_volume_host(context, host, LEFT_STATUSES),
        one, stopping)
