"""The ends of a snapshot's life that give its quota back: a create that
failed, and a delete. Each is one transaction, in the API process or in
tether-volume."""

from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume_type as db_types
from tether.objects import fields
from tether.volume import quota

S = fields.SnapshotStatus


def quota_of(context, snapshot):
    """What a snapshot (an object or the values of one) counts: one
    snapshot, and its volume's size in gigabytes, as Cinder counts it,
    for the project and for its volume's type."""
    if isinstance(snapshot, dict):
        size, volume_id = snapshot['volume_size'], snapshot['volume_id']
    else:
        size, volume_id = snapshot.volume_size, snapshot.volume_id
    return quota.with_type({'snapshots': 1, 'gigabytes': size},
                           db_types.name_of_volume(context, volume_id))


@session.VOLUME.writer
def fail_create(context, snapshot):
    """A create that failed: ``error``, its quota given back at once;
    True if this caller did (it was still ``creating``). The snapshot
    stays for its owner to see and delete; its delete gives nothing back
    a second time."""
    if db_snapshots.fail_create_in_transaction(context, snapshot.id):
        db_quotas.release_in_transaction(context, snapshot.project_id,
                                         quota_of(context, snapshot))
        return True
    return False


def destroy_in_transaction(context, snapshot, expected_statuses):
    """Remove the row if it is still in ``expected_statuses`` and give
    its quota back (if it held it); True if it went."""
    if db_snapshots.destroy_in_transaction(context, snapshot.id,
                                           expected_statuses):
        if snapshot.use_quota:
            db_quotas.release_in_transaction(context, snapshot.project_id,
                                             quota_of(context, snapshot))
        return True
    return False


@session.VOLUME.writer
def finish_delete(context, snapshot):
    """Remove a ``deleting`` snapshot's row and give its quota back."""
    return destroy_in_transaction(context, snapshot, [S.DELETING])


@session.VOLUME.writer
def update_status(context, snapshot_id, values, expected, project_id=None):
    """A reported status (InvalidSnapshotStatus from another); a create
    reported failed gives its quota back, as one the backend failed."""
    snapshot = db_snapshots.transition_in_transaction(
        context, snapshot_id, values, expected, project_id)
    if snapshot.status == S.ERROR and snapshot.use_quota:
        db_snapshots.update_in_transaction(context, snapshot_id,
                                           {'use_quota': False})
        db_quotas.release_in_transaction(context, snapshot.project_id,
                                         quota_of(context, snapshot))
    return snapshot
