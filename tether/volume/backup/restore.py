"""What tether-backup does to restore a backup into a volume (the API, or
tether-volume for a volume it made for the restore, claimed both: the
backup ``restoring`` into the volume, the volume ``restoring-backup``).

The driver writes the data of the backup's chain (its full backup, then
each incremental one up to it) into the volume's file, where the
volume's backend says it is; then, in one transaction, the volume takes
what the backup kept of its metadata and goes ``available``, and the
backup ``available``. A failure leaves the volume ``error_restoring``
and the backup ``available``, as in Cinder. Run again, a restore writes
the same data again.
"""

from oslo_log import log as logging

from tether.db.volume import backup as db_backups
from tether.db.volume import volume as db_volumes
from tether.drivers.volume import driver as volume_driver
from tether.objects import fields
from tether.volume import backup_exception
from tether.volume import backup_state
from tether.volume.backup import create
from tether.volume.backup import volume_meta
from tether.volume import exception
from tether.volume import rpcapi as volume_rpcapi

LOG = logging.getLogger(__name__)
B = fields.BackupStatus
VS = fields.VolumeStatus


def chain_of(context, backup):
    """The backups whose data make ``backup``'s: its full backup first,
    then each incremental one, ending with it."""
    chain = [backup]
    seen = {backup.id}
    while chain[0].parent_id:
        try:
            parent = db_backups.get(context, chain[0].parent_id)
        except backup_exception.BackupNotFound:
            raise backup_exception.BackupDriverError(
                reason='backup %s stands on backup %s, which is gone'
                       % (chain[0].id, chain[0].parent_id))
        if parent.id in seen:
            raise backup_exception.BackupDriverError(
                reason='the parents of backup %s make a loop' % backup.id)
        seen.add(parent.id)
        chain.insert(0, parent)
    return chain


def restore_backup(context, work, backup_id, volume_id):
    """Write the backup into the volume (see the module)."""
    backup = create.fresh(context, backup_id)
    if backup is None or backup.status != B.RESTORING or \
            backup.restore_volume_id != volume_id:
        LOG.info('Backup %s is no longer restoring into volume %s; '
                 'nothing to do', backup_id, volume_id)
        return
    try:
        volume = db_volumes.get(context, volume_id)
    except exception.VolumeNotFound:
        volume = None
    if volume is None or volume.status != VS.RESTORING_BACKUP:
        LOG.warning('Volume %s is no longer restoring-backup: restore of '
                    'backup %s given up', volume_id, backup_id)
        db_backups.conditional_update(context, backup_id,
                                      {'status': B.AVAILABLE},
                                      [B.RESTORING])
        return
    try:
        kept = _write(context, work, backup, volume,
                      work.keep_going(backup_id, B.RESTORING))
    except backup_exception.BackupInterrupted as exc:
        if work.stopping:
            LOG.info('%s; the next start of tether-backup takes it up',
                     exc)
            return
        LOG.warning('%s; volume %s is error_restoring', exc, volume_id)
        backup_state.end_restore(context, backup_id, volume_id,
                                 VS.ERROR_RESTORING)
        return
    except Exception:
        LOG.exception('Restore of backup %s into volume %s failed',
                      backup_id, volume_id)
        backup_state.end_restore(context, backup_id, volume_id,
                                 VS.ERROR_RESTORING)
        return
    if volume_meta.finish_restore(context, backup_id, volume, kept):
        LOG.info('Backup %s restored into volume %s', backup_id, volume_id)
    else:
        LOG.warning('Volume %s changed state while backup %s was restored '
                    'into it', volume_id, backup_id)


def _write(context, work, backup, volume, keep_going):
    chain = [create.ref_of(b) for b in chain_of(context, backup)]
    device = volume_rpcapi.get().get_backup_device(context, volume)
    with work.connector.writer(device, backup.size * volume_driver.GiB,
                               'restore-%s' % backup.id) as target:
        return work.driver.restore(chain, target, keep_going)
