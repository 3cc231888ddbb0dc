"""The ends of a volume's life that give its quota back: a create that
failed, and a delete. Each is one transaction, in the API process (a
volume no backend took) or in tether-volume."""

from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import group_state
from tether.volume import quota
from tether.volume import snapshot_state

S = fields.VolumeStatus


def _quota(context, volume):
    """What a volume counts, for its project and for its type."""
    return quota.with_type({'volumes': 1, 'gigabytes': volume.size},
                           quota.volume_type_name(context, volume))


@session.VOLUME.writer
def fail_create(context, volume, expected_statuses):
    """Put a create that failed in ``error`` and give its quota back, at
    once; True if this caller did (the volume was still in one of
    ``expected_statuses``). The volume stays, for its owner to see what
    failed and delete; it no longer counts against the quota
    (``consumes_quota`` false), and its delete gives nothing back."""
    if db_volumes.fail_create_in_transaction(context, volume.id,
                                             expected_statuses):
        db_quotas.release_in_transaction(context, volume.project_id,
                                         _quota(context, volume))
        return True
    return False


@session.VOLUME.writer
def finish_delete(context, volume):
    """Remove a ``deleting`` volume's row (and its snapshots') and give
    its quota back (if it still held it), at once; the last volume of a
    group being deleted takes the group with it."""
    # The group's row first (tether.volume.group_state): of two volumes
    # of the group that go at once, the second sees the first gone.
    group_id = volume.group_id
    in_deleted_group = bool(group_id) and \
        group_state.hold_deleting_in_transaction(context, group_id)
    # The snapshots of a volume deleted with cascade go first, with it
    # (its backend removed their files with the volume's).
    # (The UPDATE holds the row and says whether it is still deleting.)
    if db_volumes.conditional_update(context, volume.id,
                                     {'status': S.DELETING}, [S.DELETING]):
        for snapshot in db_snapshots.of_volume_in_transaction(context,
                                                              volume.id):
            snapshot_state.destroy_in_transaction(
                context, snapshot, fields.SnapshotStatus.ALL)
    counted = _quota(context, volume)   # read while the row is there
    if db_volumes.destroy_in_transaction(context, volume.id, [S.DELETING]):
        if volume.use_quota:
            db_quotas.release_in_transaction(context, volume.project_id,
                                             counted)
        db_quotas.rollback(context, db_quotas.get_reservations_for(
            context, volume.id))
        if in_deleted_group:
            group_state.finish_delete_in_transaction(context, group_id)
