"""What tether-backup does to delete a backup (the API claimed it:
``deleting``), and to import an exported record (the API inserted it:
``creating``, of volume 0000…, holding its quota)."""

from oslo_log import log as logging
from oslo_utils import timeutils

from tether.db.volume import backup as db_backups
from tether.drivers.volume.backup import driver as backup_driver
from tether.objects import fields
from tether.volume import backup_exception
from tether.volume import backup_state
from tether.volume.backup import create

LOG = logging.getLogger(__name__)
B = fields.BackupStatus
# The fields of a record an import takes (Cinder's names, as exported),
# and the column each fills.
IMPORTED = {'display_name': 'name', 'display_description': 'description',
            'container': 'container', 'service_metadata':
            'service_metadata', 'object_count': 'object_count',
            'volume_id': 'volume_id', 'snapshot_id': 'snapshot_id',
            'parent_id': 'parent_id', 'data_timestamp': 'data_timestamp',
            'availability_zone': 'availability_zone', 'service': 'service'}
REQUIRED = ('display_name', 'display_description', 'container', 'size',
            'service_metadata', 'object_count', 'id')


def delete_backup(context, work, backup_id):
    """Remove the backup's data, then its row (its quota given back);
    ``error_deleting`` if the repository failed."""
    backup = create.fresh(context, backup_id)
    if backup is None or backup.status != B.DELETING:
        return
    try:
        work.driver.delete(create.ref_of(backup))
    except Exception:
        LOG.exception('Deleting backup %s failed', backup_id)
        db_backups.conditional_update(context, backup_id,
                                      {'status': B.ERROR_DELETING},
                                      [B.DELETING])
        return
    backup_state.finish_delete(context, backup)
    LOG.info('Backup %s deleted', backup_id)


def _values(record):
    missing = [key for key in REQUIRED if key not in record]
    if missing:
        raise backup_exception.InvalidBackupRecord(
            reason='it has no %s' % ', '.join(missing))
    values = {column: record.get(key) for key, column in IMPORTED.items()
              if key in record}
    values.setdefault('volume_id', backup_state.IMPORT_VOLUME_ID)
    if values.get('data_timestamp'):
        values['data_timestamp'] = timeutils.parse_isotime(
            values['data_timestamp']).replace(tzinfo=None)
    return values


def import_record(context, work, backup_id, record):
    """Check that the repository holds the backup ``record`` names, then
    make the imported backup ``available`` with the record's fields;
    ``error`` (its quota given back) if it does not."""
    backup = create.fresh(context, backup_id)
    if backup is None or backup.status != B.CREATING or \
            backup.volume_id != backup_state.IMPORT_VOLUME_ID:
        return
    try:
        for key in ('service', 'backup_service'):
            service = record.get(key)
            if service and service != work.driver.service_name:
                raise backup_exception.InvalidBackupRecord(
                    reason='its %s is %s, not this backup service\'s '
                           'driver (%s)' % (key, service,
                                            work.driver.service_name))
        values = _values(record)
        work.driver.verify(backup_driver.BackupRef(
            id=record['id'], volume_id=values['volume_id'],
            container=values['container'],
            prefix=values['service_metadata']))
    except Exception as exc:
        LOG.exception('Import of backup %s failed', backup_id)
        backup_state.fail_create(context, backup, create.reason_of(exc))
        return
    values['service'] = work.driver.service_name
    if not backup_state.finish_import(context, backup, values):
        LOG.warning('Backup %s changed state while it was imported',
                    backup_id)
        return
    LOG.info('Backup %s imported', backup_id)
