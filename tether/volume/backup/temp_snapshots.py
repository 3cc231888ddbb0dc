"""The snapshot a backup of an attached volume is read from, as Cinder
takes one: a snapshot of the volume (``backup-snap-<volume id>``, which
counts no quota), taken by the volume's backend with the compute host
of its server (tether.volume.ops.assisted_snapshots), read while the
guest writes on, and deleted (merged) once the backup is made."""

import time

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import backup as db_backups
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import backup_exception
from tether.volume import exception
from tether.volume import rpcapi as volume_rpcapi

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
S = fields.SnapshotStatus
B = fields.BackupStatus
POLL_FIRST = 0.05
POLL_MAX = 1.0


@session.VOLUME.writer
def _insert(context, backup, volume):
    values = {
        'id': uuidutils.generate_uuid(), 'volume_id': volume.id,
        'project_id': volume.project_id, 'user_id': backup.user_id,
        'name': 'backup-snap-%s' % volume.id,
        'description': 'temporary snapshot of backup %s' % backup.id,
        'status': S.CREATING, 'progress': '0%',
        'volume_size': volume.size, 'use_quota': False,
    }
    if not db_backups.conditional_update_in_transaction(
            context, backup.id, {'temp_snapshot_id': values['id']},
            [B.CREATING]):
        raise backup_exception.BackupInterrupted(
            backup_id=backup.id, reason='it is no longer creating')
    return db_snapshots.create_in_transaction(context, values)


def _get(context, snapshot_id):
    try:
        return db_snapshots.get(context, snapshot_id)
    except exception.SnapshotNotFound:
        return None


def take(context, backup, volume, keep_going):
    """The backup's temporary snapshot, taken (one a run before this one
    took is used again); raises BackupDriverError if it was not."""
    snapshot = None
    if backup.temp_snapshot_id:
        snapshot = _get(context, backup.temp_snapshot_id)
        if snapshot is not None and snapshot.status not in (S.CREATING,
                                                            S.AVAILABLE):
            drop(context, backup.temp_snapshot_id)
            snapshot = None
    if snapshot is None:
        snapshot = _insert(context, backup, volume)
        volume_rpcapi.get().create_snapshot(context, volume, snapshot)
    deadline = time.monotonic() + CONF.backup.snapshot_timeout
    interval = POLL_FIRST
    while snapshot is not None and snapshot.status == S.CREATING:
        keep_going()
        if time.monotonic() > deadline:
            raise backup_exception.BackupDriverError(
                reason='the snapshot of attached volume %s was not taken '
                       'in %d seconds' % (volume.id,
                                          CONF.backup.snapshot_timeout))
        time.sleep(interval)
        interval = min(interval * 2, POLL_MAX)
        snapshot = _get(context, snapshot.id)
    if snapshot is None or snapshot.status != S.AVAILABLE:
        raise backup_exception.BackupDriverError(
            reason='the snapshot of attached volume %s was not taken (%s)'
                   % (volume.id, snapshot.status if snapshot else 'gone'))
    return snapshot


def drop(context, snapshot_id, backup_id=None):
    """Delete the temporary snapshot (its backend merges it away) and,
    with ``backup_id``, forget it in the backup; nothing if it is gone
    or being deleted."""
    snapshot = _get(context, snapshot_id)
    if snapshot is not None and db_snapshots.conditional_update(
            context, snapshot_id, {'status': S.DELETING},
            [S.AVAILABLE, S.ERROR, S.CREATING]):
        volume = db_volumes.get(context, snapshot.volume_id)
        try:
            volume_rpcapi.get().delete_snapshot(context, volume, snapshot)
        except Exception:
            LOG.exception('The delete of temporary snapshot %s could not '
                          'be cast; it is left deleting', snapshot_id)
    if backup_id is not None:
        db_backups.conditional_update(context, backup_id,
                                      {'temp_snapshot_id': None}, B.ALL)
