"""Restores of backups (``POST /backups/{id}/restore``) in the API
process.

Into a volume of the caller's: one transaction claims the volume
(``available`` -> ``restoring-backup``, at least as large as the
backup) and the backup (``available`` -> ``restoring`` into it); a
tether-backup writes it. Into a new volume (no ``volume_id``): the
backup is claimed for the volume's id first, then the volume is made as
any create makes one (its quota counted), and once its backend made it,
tether-volume hands it to a tether-backup instead of making it
``available`` (tether.volume.ops.volumes); the answer does not wait. A
volume create naming a backup (3.47) is a restore into a new volume
that the create describes.
"""

from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import backup as db_backups
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.api import backups
from tether.volume.api import volumes as volume_api
from tether.volume.backup import hosts
from tether.volume.backup import rpcapi as backup_rpcapi
from tether.volume.backup import volume_meta
from tether.volume import backup_exception
from tether.volume import backup_state
from tether.volume import exception

LOG = logging.getLogger(__name__)
B = fields.BackupStatus
VS = fields.VolumeStatus
NEW_VOLUME_DESCRIPTION = 'auto-created_from_restore_from_backup'


def _check_available(backup):
    if backup.status != B.AVAILABLE:
        raise backup_exception.InvalidBackupStatus(
            backup_id=backup.id, status=backup.status, expected=B.AVAILABLE)


@session.VOLUME.writer
def _claim(context, backup, volume, host):
    if not db_volumes.conditional_update(
            context, volume.id, {'status': VS.RESTORING_BACKUP},
            [VS.AVAILABLE], context.project_scope):
        current = db_volumes.get(context, volume.id)
        raise exception.InvalidVolume(
            reason='volume to be restored to must be available, but volume '
                   '%s is %s' % (volume.id, current.status))
    return db_backups.transition_in_transaction(
        context, backup.id, {'status': B.RESTORING, 'host': host,
                             'restore_volume_id': volume.id},
        [B.AVAILABLE])


def _into_existing(context, backup, volume_id, host):
    volume = volume_api.get(context, volume_id)
    if backup.size > volume.size:
        raise exception.InvalidVolume(
            reason='volume size %d is too small to restore backup of size '
                   '%d' % (volume.size, backup.size))
    backup = _claim(context, backup, volume, host)
    try:
        backup_rpcapi.get().restore_backup(context, backup, volume.id,
                                           volume_is_new=False)
    except Exception:
        LOG.exception('Could not cast the restore of backup %s',
                      backup.id)
        backup_state.end_restore(context, backup.id, volume.id,
                                 VS.AVAILABLE)
        raise
    return volume


def _into_new(context, backup, host, size, **create):
    """Claim the backup for a new volume's id, then make the volume
    (``create``: volume_api.create's arguments); the volume, which the
    scheduler may have put in ``error`` (the backup then is available
    again)."""
    volume_id = uuidutils.generate_uuid()
    db_backups.transition(context, backup.id,
                          {'status': B.RESTORING, 'host': host,
                           'restore_volume_id': volume_id},
                          [B.AVAILABLE], context.project_scope)
    try:
        volume = volume_api.create(context, size, volume_id=volume_id,
                                   **create)
    except Exception:
        backup_state.abandon_restore(context, volume_id)
        raise
    if volume.status == VS.ERROR:
        backup_state.abandon_restore(context, volume_id)
    return volume


def restore(context, backup_id, volume_id=None, name=None):
    """Restore the backup into volume ``volume_id``, or into a new volume
    (named ``name``, else ``restore_backup_<id>``); the volume."""
    backup = backups.get(context, backup_id)
    _check_available(backup)
    host, _zone = hosts.choose(context, 'a restore', prefer=backup.host)
    if volume_id is not None:
        return _into_existing(context, backup, volume_id, host)
    volume = _into_new(
        context, backup, host, backup.size,
        name=name or volume_meta.RESTORE_NAME_PREFIX + backup_id,
        description=NEW_VOLUME_DESCRIPTION)
    if volume.status == VS.ERROR:
        raise exception.InvalidVolume(
            reason='error while creating volume %s for restoring backup %s'
                   % (volume.id, backup.id))
    return volume


def create_volume(context, backup_id, size=None, **create):
    """A volume create naming a backup (3.47, ``backup_id``): a new
    volume of ``size`` (the backup's if None, never smaller), made as
    any create makes one (``create``: volume_api.create's other
    arguments), the backup then restored into it. The volume, as the
    create answers it: the scheduler may have put it in ``error``."""
    backup = backups.get(context, backup_id)
    _check_available(backup)
    if size is None:
        size = backup.size
    elif size < backup.size:
        raise exception.InvalidInput(
            reason='volume size %dGB cannot be smaller than the size %dGB '
                   'of backup %s' % (size, backup.size, backup.id))
    host, _zone = hosts.choose(context, 'a volume create from a backup',
                               prefer=backup.host)
    return _into_new(context, backup, host, size, **create)
