"""What the volume manager does for a group snapshot (the API claimed
it: ``creating`` or ``deleting``, with its snapshots), as plain
functions.

The snapshots of the group's detached volumes are taken in one moment:
the backend holds every one of those volumes' locks from the first
overlay to the last (nothing of tether writes them in between, and no
guest holds them). An attached volume's data is its guest's to write:
its snapshot is its compute host's to take (os-assisted-volume-
snapshots), one volume after the other, as a single snapshot of it is
(tether.volume.ops.assisted_snapshots). A delete removes each snapshot
as a single delete does, then the group snapshot.

Each acts only from the status its claim left, so a redelivered
message, or the reconciliation after a restart, runs it again or does
nothing.
"""

from oslo_log import log as logging

from tether.db import session
from tether.db.volume import group_snapshot as db_group_snapshots
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.ops import assisted_snapshots
from tether.volume.ops import left_over
from tether.volume.ops import snapshots as snapshot_ops
from tether.volume import group_exception
from tether.volume import snapshot_state

LOG = logging.getLogger(__name__)
GS = fields.GroupSnapshotStatus
S = fields.SnapshotStatus


def _fresh(context, group_snapshot_id):
    try:
        return db_group_snapshots.get(context, group_snapshot_id)
    except group_exception.GroupSnapshotNotFound:
        return None


def _taken(context, snapshot):
    return db_snapshots.conditional_update(
        context, snapshot.id, {'status': S.AVAILABLE, 'progress': '100%'},
        [S.CREATING])


def create_group_snapshot(context, driver, group_snapshot_id):
    """Take every snapshot of the group snapshot still ``creating``;
    the group snapshot is ``available`` then, ``error`` if one failed
    (each failed snapshot ``error``, its quota given back)."""
    group_snapshot = _fresh(context, group_snapshot_id)
    if group_snapshot is None or group_snapshot.status != GS.CREATING:
        LOG.info('Group snapshot %s is no longer creating; nothing to do',
                 group_snapshot_id)
        return
    pairs = [(db_volumes.get(context, s.volume_id), s)
             for s in db_group_snapshots.snapshots(context,
                                                   group_snapshot_id)
             if s.status == S.CREATING]
    offline = [(v, s) for v, s in pairs
               if not assisted_snapshots.needs_compute(context, v)]
    online = [(v, s) for v, s in pairs if (v, s) not in offline]
    failed = False
    try:
        driver.create_group_snapshot(offline)
        for _volume, snapshot in offline:
            _taken(context, snapshot)
    except Exception:
        LOG.exception('Group snapshot %s: the snapshots of its detached '
                      'volumes were not taken', group_snapshot_id)
        failed = True
        for _volume, snapshot in offline:
            snapshot_state.fail_create(context, snapshot)
    for volume, snapshot in online:
        try:
            assisted_snapshots.take(context, driver, volume, snapshot)
            _taken(context, snapshot)
        except Exception:
            LOG.exception('Group snapshot %s: snapshot %s of attached '
                          'volume %s was not taken', group_snapshot_id,
                          snapshot.id, volume.id)
            failed = True
            snapshot_state.fail_create(context, snapshot)
    db_group_snapshots.conditional_update(
        context, group_snapshot_id,
        {'status': GS.ERROR if failed else GS.AVAILABLE}, [GS.CREATING])
    LOG.info('Group snapshot %s of group %s taken%s', group_snapshot_id,
             group_snapshot.group_id, ' with errors' if failed else '')


@session.VOLUME.writer
def _finish_delete(context, group_snapshot_id):
    """The group snapshot's row goes if none of its snapshots is left;
    ``error_deleting`` else."""
    if db_group_snapshots.snapshots_in_transaction(context,
                                                   group_snapshot_id):
        db_group_snapshots.conditional_update(
            context, group_snapshot_id, {'status': GS.ERROR_DELETING},
            [GS.DELETING])
        return False
    return db_group_snapshots.destroy_in_transaction(
        context, group_snapshot_id, [GS.DELETING])


def delete_group_snapshot(context, driver, group_snapshot_id):
    """Delete each of its snapshots (``deleting``) as a single delete
    does, then the group snapshot."""
    group_snapshot = _fresh(context, group_snapshot_id)
    if group_snapshot is None or group_snapshot.status != GS.DELETING:
        return
    for snapshot in db_group_snapshots.snapshots(context,
                                                 group_snapshot_id):
        snapshot_ops.delete_snapshot(context, driver, snapshot.id)
    if _finish_delete(context, group_snapshot_id):
        LOG.info('Group snapshot %s deleted', group_snapshot_id)
    else:
        LOG.warning('Group snapshot %s: some of its snapshots were not '
                    'deleted', group_snapshot_id)


def reconcile(context, driver, host, stopping=None):
    """Run again what a group snapshot of this backend's groups was left
    doing (creating, deleting), as if its message came again. One whose
    take-up raises stays as it was, for the next start or an
    administrator's reset; returns a tether.volume.ops.left_over.Tally."""
    def one(group_snapshot):
        LOG.info('Reconciling group snapshot %s left %s', group_snapshot.id,
                 group_snapshot.status)
        if group_snapshot.status == GS.CREATING:
            create_group_snapshot(context, driver, group_snapshot.id)
        else:
            delete_group_snapshot(context, driver, group_snapshot.id)

    return left_over.each(
        'group snapshot',
        db_group_snapshots.left_on_host(context, host,
                                        (GS.CREATING, GS.DELETING)),
        one, stopping)
