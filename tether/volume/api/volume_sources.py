"""What a new volume is made of besides an image: a snapshot
(``snapshot_id``) or another volume (``source_volid``, a clone), in the
API process.

The source is found with the caller's project scope (404 if it is not
theirs), must be ``available``, and is held by a conditional UPDATE in
the transaction that inserts the new volume; the deletes of snapshots
and volumes read, after their own claim, whether a volume is being made
of what they delete (and are refused if so): the backend reads the
source's files until the new volume is made.
"""

import dataclasses

from tether.db import base
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import exception

S = fields.VolumeStatus
SS = fields.SnapshotStatus
# The statuses of a volume whose backend may still read its source.
_BEING_MADE = (S.CREATING, S.DOWNLOADING)


@dataclasses.dataclass
class Source:
    volume: object            # the source volume (the snapshot's volume)
    snapshot: object = None   # the snapshot, for a volume made of one

    @property
    def size(self):
        return (self.snapshot.volume_size if self.snapshot is not None
                else self.volume.size)

    @property
    def what(self):
        if self.snapshot is not None:
            return 'snapshot %s' % self.snapshot.id
        return 'volume %s' % self.volume.id

    def values(self):
        """The new volume's columns that name its source."""
        return {'snapshot_id': self.snapshot.id if self.snapshot else None,
                'source_volid': (None if self.snapshot
                                 else self.volume.id)}


def find(context, snapshot_id=None, source_volid=None):
    """The Source a create names; SnapshotNotFound or VolumeNotFound (404)
    if the caller has no such one, 400 if it is not ``available``."""
    if snapshot_id is not None:
        snapshot = db_snapshots.get(context, snapshot_id,
                                    context.project_scope)
        if snapshot.status != SS.AVAILABLE:
            raise exception.InvalidSnapshotStatus(
                snapshot_id=snapshot_id, status=snapshot.status,
                expected=SS.AVAILABLE)
        return Source(db_volumes.get(context, snapshot.volume_id),
                      snapshot)
    volume = db_volumes.get(context, source_volid, context.project_scope)
    if volume.status != S.AVAILABLE:
        raise exception.InvalidVolumeStatus(
            volume_id=source_volid, status=volume.status,
            expected=S.AVAILABLE)
    return Source(volume)


def hold_in_transaction(context, source):
    """The source is still ``available`` (its row held until the
    caller's transaction ends), or 400 with the status it has now."""
    now = {'updated_at': base.now()}
    if source.snapshot is not None:
        db_snapshots.transition_in_transaction(
            context, source.snapshot.id, now, [SS.AVAILABLE])
    else:
        db_volumes.transition(context, source.volume.id, now, [S.AVAILABLE],
                              read_back=False)


def check_no_volume_made_of_snapshot(context, snapshot_id):
    """SnapshotInUse (400) if a volume is being made of the snapshot
    (read in the caller's transaction, after its claim)."""
    volume_id = db_volumes.one_made_of_in_transaction(
        context, 'snapshot_id', snapshot_id, _BEING_MADE)
    if volume_id is not None:
        raise exception.SnapshotInUse(snapshot_id=snapshot_id,
                                      volume_id=volume_id)


def check_no_volume_made_of_volume(context, source_volid):
    """VolumeBeingCopied (400) if a volume is being made of the volume
    (read in the caller's transaction, after its claim)."""
    volume_id = db_volumes.one_made_of_in_transaction(
        context, 'source_volid', source_volid, _BEING_MADE)
    if volume_id is not None:
        raise exception.VolumeBeingCopied(volume_id=source_volid,
                                          clone_id=volume_id)
