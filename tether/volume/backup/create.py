"""What tether-backup does to make a backup (the API claimed it:
``creating``, its volume ``backing-up`` or its snapshot), as plain
functions.

The volume's backend says where its data is (tether-volume's
get_backup_device): the volume's file, the chain below a snapshot of it,
or, for an attached volume, below a temporary snapshot taken for the
backup (temp_snapshots). The driver reads it through the connector and
stores it. Each step may be run again: the driver replaces what an
interrupted run wrote, and a temporary snapshot taken is used again.
"""

from oslo_log import log as logging

from tether.db.volume import backup as db_backups
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.drivers.volume.backup import driver as backup_driver
from tether.objects import fields
from tether.volume import backup_exception
from tether.volume import backup_state
from tether.volume.backup import temp_snapshots
from tether.volume.backup import volume_meta
from tether.volume import rpcapi as volume_rpcapi

LOG = logging.getLogger(__name__)
B = fields.BackupStatus
VS = fields.VolumeStatus


def ref_of(backup):
    """The driver's view of a backup."""
    return backup_driver.BackupRef(
        id=backup.id, volume_id=backup.volume_id,
        container=backup.container, prefix=backup.service_metadata,
        parent_id=backup.parent_id, name=backup.name,
        description=backup.description,
        created_at=str(backup.created_at.replace(tzinfo=None))
        if backup.created_at else None)


def fresh(context, backup_id):
    try:
        return db_backups.get(context, backup_id)
    except backup_exception.BackupNotFound:
        return None


def reason_of(exc):
    return str(exc) or exc.__class__.__name__


def create_backup(context, work, backup_id):
    """Make the backup; ``available`` then (its volume or snapshot back
    to what it was), ``error`` (its quota given back) if it failed; if
    its status changed meanwhile (a force delete, a reset), what this
    run wrote is removed; if tether-backup stops, it is left for the
    next start."""
    backup = fresh(context, backup_id)
    if backup is None or backup.status != B.CREATING or \
            backup.volume_id == backup_state.IMPORT_VOLUME_ID:
        LOG.info('Backup %s is no longer creating; nothing to do',
                 backup_id)
        return
    latest = [backup]
    try:
        _make(context, work, latest, work.keep_going(backup_id,
                                                     B.CREATING))
    except backup_exception.BackupInterrupted as exc:
        if work.stopping:
            LOG.info('%s; the next start of tether-backup takes it up',
                     exc)
            return
        LOG.info('%s; what it wrote is removed', exc)
        _abandon(context, work, latest[0])
    except Exception as exc:
        LOG.exception('Backup %s of volume %s failed', backup_id,
                      backup.volume_id)
        fail(context, work, backup_id, reason_of(exc))


def _source(context, backup, volume, keep_going):
    """The snapshot the data is read from: the backup's, or a temporary
    one of an attached volume; None: the volume itself."""
    if backup.snapshot_id:
        return db_snapshots.get(context, backup.snapshot_id)
    if volume.previous_status == VS.IN_USE or volume.attachments:
        return temp_snapshots.take(context, backup, volume, keep_going)
    return None


def _prepared(context, work, backup):
    """The backup with its container and prefix recorded."""
    if backup.service_metadata:
        return backup
    container, prefix = work.driver.prepare(ref_of(backup))
    if not db_backups.conditional_update(
            context, backup.id,
            {'container': container, 'service_metadata': prefix,
             'service': work.driver.service_name}, [B.CREATING]):
        raise backup_exception.BackupInterrupted(
            backup_id=backup.id, reason='it is no longer creating')
    return db_backups.get(context, backup.id)


def _make(context, work, latest, keep_going):
    """Make the backup ``latest[0]`` (which holds the backup as this
    run last recorded it)."""
    backup = latest[0]
    volume = db_volumes.get(context, backup.volume_id)
    snapshot = _source(context, backup, volume, keep_going)
    if snapshot is not None and not backup.snapshot_id:
        # (It recorded its temporary snapshot.)
        backup = latest[0] = fresh(context, backup.id) or backup
    device = volume_rpcapi.get().get_backup_device(context, volume,
                                                   snapshot)
    backup = latest[0] = _prepared(context, work, backup)
    parent = None
    if backup.parent_id:
        parent = ref_of(db_backups.get(context, backup.parent_id))
    with work.connector.reader(device, 'backup-%s' % backup.id) as source:
        count = work.driver.backup(ref_of(backup), source, parent,
                                   volume_meta.gather(volume), keep_going)
    if not backup_state.finish_create(context, backup,
                                      {'object_count': count}):
        raise backup_exception.BackupInterrupted(
            backup_id=backup.id, reason='it is no longer creating')
    if snapshot is not None and not backup.snapshot_id:
        temp_snapshots.drop(context, snapshot.id, backup.id)
    LOG.info('Backup %s of volume %s made (%d objects%s)', backup.id,
             backup.volume_id, count,
             ', incremental on %s' % parent.id if parent else '')


def _forget_data(work, backup):
    if backup is not None and backup.service_metadata:
        try:
            work.driver.delete(ref_of(backup))
        except Exception:
            LOG.exception('What backup %s wrote could not be removed',
                          backup.id)


def fail(context, work, backup_id, reason):
    """``error`` with ``reason``, its quota given back, what it wrote
    removed, its volume (or snapshot) released, its temporary snapshot
    deleted."""
    backup = fresh(context, backup_id)
    if backup is None:
        return
    _forget_data(work, backup)
    backup_state.fail_create(context, backup, reason)
    if backup.temp_snapshot_id:
        temp_snapshots.drop(context, backup.temp_snapshot_id, backup.id)


def _abandon(context, work, last):
    """The backup (``last``: as this run last recorded it) is no
    longer ``creating`` (deleted with os-force_delete, or reset): what
    this run wrote after a delete is removed too, the volume or snapshot
    released, the temporary snapshot deleted."""
    backup = fresh(context, last.id)
    if backup is None or backup.status == B.DELETING:
        _forget_data(work, backup or last)
    backup_state.release_source(context, backup or last)
    temp = (backup or last).temp_snapshot_id
    if temp:
        temp_snapshots.drop(context, temp, last.id)
