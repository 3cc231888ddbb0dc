"""The revert of a volume to its latest snapshot (3.40) in the API
process: the checks and both claims in one transaction, then a cast."""

from tether.db import session
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import exception
from tether.volume import rpcapi

S = fields.VolumeStatus
SS = fields.SnapshotStatus


@session.VOLUME.writer
def _claim(context, volume_id, snapshot_id):
    """The volume ``reverting`` and its latest snapshot ``restoring``,
    at once. The volume's UPDATE comes first: from then on no snapshot
    is taken of it nor is it extended (both need it available), so the
    latest snapshot read after it stays the latest; a delete of that
    snapshot either came first (it is not available: 409) or finds it
    restoring."""
    def refuse(reason):
        return exception.InvalidRevert(volume_id=volume_id,
                                       snapshot_id=snapshot_id,
                                       reason=reason)
    if not db_volumes.conditional_update(context, volume_id,
                                         {'status': S.REVERTING},
                                         [S.AVAILABLE],
                                         context.project_scope):
        current = db_volumes.get(context, volume_id, context.project_scope)
        raise exception.RevertConflict(
            volume_id=volume_id, snapshot_id=snapshot_id,
            reason='the volume is %s; it must be available'
                   % current.status)
    # Read as the UPDATE holds it: its size cannot change any more.
    volume = db_volumes.get(context, volume_id)
    snapshots = db_snapshots.of_volume_in_transaction(context, volume_id)
    if not snapshots:
        raise refuse('the volume has no snapshots')
    latest = snapshots[-1]
    if latest.id != snapshot_id:
        raise refuse('it is not the latest snapshot of the volume (%s is)'
                     % latest.id)
    if latest.volume_size != volume.size:
        raise refuse('the volume is %dG, the snapshot was taken of %dG; '
                     'the sizes must be equal' % (volume.size,
                                                  latest.volume_size))
    if not db_snapshots.conditional_update(context, snapshot_id,
                                           {'status': SS.RESTORING},
                                           [SS.AVAILABLE]):
        raise exception.RevertConflict(
            volume_id=volume_id, snapshot_id=snapshot_id,
            reason='the snapshot is %s; it must be available'
                   % latest.status)
    return volume, latest


def revert(context, volume_id, snapshot_id):
    """Claim both (a refusal changes nothing: the transaction is rolled
    back) and cast the revert to the volume's backend."""
    rpcapi.get().check_revert()
    volume, snapshot = _claim(context, volume_id, snapshot_id)
    rpcapi.get().revert_to_snapshot(context, volume, snapshot)
