"""The revert of a volume to its latest snapshot, on the volume host:
the driver's revert, then both back to ``available``; a failure leaves
the volume ``error`` and the snapshot ``available``, as Cinder's
manager does."""

from oslo_log import log as logging

from tether.db import session
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import exception

LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
SS = fields.SnapshotStatus


@session.VOLUME.writer
def _end(context, volume_id, snapshot_id, volume_status):
    """The volume ``reverting`` -> ``volume_status`` and the snapshot
    ``restoring`` -> ``available``, at once."""
    won = db_volumes.conditional_update(context, volume_id,
                                        {'status': volume_status},
                                        [S.REVERTING])
    db_snapshots.conditional_update(context, snapshot_id,
                                    {'status': SS.AVAILABLE},
                                    [SS.RESTORING])
    return won


def revert(context, driver, volume_id, snapshot_id):
    """Revert if both are still as the API claimed them (a message
    delivered twice, or taken up after a restart, runs it again: the
    same result)."""
    try:
        volume = db_volumes.get(context, volume_id)
        snapshot = db_snapshots.get(context, snapshot_id)
    except (exception.VolumeNotFound, exception.SnapshotNotFound):
        LOG.info('Volume %s or snapshot %s is gone; nothing to revert',
                 volume_id, snapshot_id)
        return
    if volume.status != S.REVERTING or snapshot.status != SS.RESTORING:
        LOG.info('Volume %s is no longer reverting to snapshot %s',
                 volume_id, snapshot_id)
        return
    try:
        driver.revert_to_snapshot(volume, snapshot)
    except Exception:
        LOG.exception('Reverting volume %s to snapshot %s failed',
                      volume_id, snapshot_id)
        _end(context, volume_id, snapshot_id, S.ERROR)
        return
    if _end(context, volume_id, snapshot_id, S.AVAILABLE):
        LOG.info('Volume %s reverted to snapshot %s', volume_id,
                 snapshot_id)


def take_up(context, driver, volume):
    """A volume left ``reverting`` (a restart): its restoring snapshot
    is the one it reverts to; run the revert again."""
    for snapshot in db_snapshots.of_volume(context, volume.id):
        if snapshot.status == SS.RESTORING:
            revert(context, driver, volume.id, snapshot.id)
            return
    # No snapshot restoring (reset meanwhile): the volume goes back.
    db_volumes.conditional_update(context, volume.id,
                                  {'status': S.AVAILABLE}, [S.REVERTING])
