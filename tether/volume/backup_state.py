"""The ends of a backup's create, restore and delete, each one
transaction (in the API process or in tether-backup): the backup's
status, its quota, and the status its volume (or snapshot) goes back
to."""

from tether.db import session
from tether.db.volume import backup as db_backups
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import exception

B = fields.BackupStatus
VS = fields.VolumeStatus
SS = fields.SnapshotStatus
# Cinder's volume of an imported backup until its record is read.
IMPORT_VOLUME_ID = '00000000-0000-0000-0000-000000000000'


def quota_of(backup):
    """What a backup (an object or the values of one) counts: one
    backup, and its size in gigabytes."""
    size = backup['size'] if isinstance(backup, dict) else backup.size
    return {'backups': 1, 'backup_gigabytes': size}


def release_source_in_transaction(context, backup):
    """The volume (or the snapshot) a create read goes back to the
    status it had: a volume ``backing-up`` to its previous status, a
    snapshot to ``available``."""
    if backup.snapshot_id:
        db_snapshots.conditional_update(
            context, backup.snapshot_id, {'status': SS.AVAILABLE},
            [SS.BACKING_UP])
        return
    volume = _volume(context, backup.volume_id)
    if volume is not None and volume.status == VS.BACKING_UP:
        db_volumes.conditional_update(
            context, volume.id,
            {'status': volume.previous_status or VS.AVAILABLE,
             'previous_status': None}, [VS.BACKING_UP])


@session.VOLUME.writer
def release_source(context, backup):
    release_source_in_transaction(context, backup)


def _volume(context, volume_id):
    try:
        return db_volumes.get(context, volume_id)
    except exception.VolumeNotFound:
        return None


@session.VOLUME.writer
def fail_create(context, backup, reason):
    """A create that failed: ``error`` (``fail_reason``), its quota given
    back, its volume or snapshot released; True if this caller did (it
    was still ``creating``). It stays for its owner to see and delete;
    its delete gives nothing back a second time."""
    if not db_backups.fail_create_in_transaction(context, backup.id,
                                                 reason):
        return False
    db_quotas.release_in_transaction(context, backup.project_id,
                                     quota_of(backup))
    if backup.volume_id != IMPORT_VOLUME_ID:
        release_source_in_transaction(context, backup)
    return True


@session.VOLUME.writer
def finish_create(context, backup, values):
    """``available`` (with ``values``: what the driver wrote) if still
    ``creating``, and its volume or snapshot released; True if so."""
    won = db_backups.conditional_update_in_transaction(
        context, backup.id, dict(values, status=B.AVAILABLE),
        [B.CREATING])
    if won:
        release_source_in_transaction(context, backup)
    return won


@session.VOLUME.writer
def finish_import(context, backup, values):
    """An imported backup ``available`` with its record's ``values`` if
    still ``creating`` (its parent, if this database has it, counts one
    more child); True if so."""
    won = db_backups.conditional_update_in_transaction(
        context, backup.id, dict(values, status=B.AVAILABLE), [B.CREATING])
    if won and values.get('parent_id'):
        db_backups.add_dependent_in_transaction(
            context, values['parent_id'], B.ALL)
    return won


def destroy_in_transaction(context, backup, expected_statuses):
    """Remove the row if it is still in ``expected_statuses`` and give
    its quota back (if it held it); True if it went."""
    if db_backups.destroy_in_transaction(context, backup,
                                         expected_statuses):
        if backup.use_quota:
            db_quotas.release_in_transaction(context, backup.project_id,
                                             quota_of(backup))
        return True
    return False


@session.VOLUME.writer
def finish_delete(context, backup):
    """Remove a ``deleting`` backup's row and give its quota back."""
    return destroy_in_transaction(context, backup, [B.DELETING])


@session.VOLUME.writer
def end_restore(context, backup_id, volume_id, volume_status,
                volume_values=None):
    """The end of a restore into ``volume_id``: the volume (still
    ``restoring-backup``) goes ``volume_status``, the backup (still
    restoring into it) ``available``; True if the volume did."""
    db_backups.end_restore_in_transaction(context, backup_id, volume_id)
    return db_volumes.conditional_update(
        context, volume_id, dict(volume_values or {}, status=volume_status),
        [VS.RESTORING_BACKUP])


@session.VOLUME.writer
def abandon_restore(context, volume_id):
    """A volume made for a restore failed before the restore began: the
    backup restoring into it is ``available`` again."""
    backup = db_backups.restoring_into(context, volume_id)
    if backup is not None:
        db_backups.end_restore_in_transaction(context, backup.id, volume_id)
