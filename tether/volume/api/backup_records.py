"""The records of backups (``GET /backups/{id}/export_record``, ``POST
/backups/import_record``) in the API process: what Cinder exports of a
backup (its fields under Cinder's names, and what its driver adds),
JSON in base64, which a database that lost the backup imports again
with the same id."""

import base64
import binascii

from oslo_log import log as logging
from oslo_serialization import jsonutils
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import backup as db_backups
from tether.db.volume import quota as db_quotas
from tether.objects import fields
from tether.volume.api import backups
from tether.volume import backup_exception
from tether.volume import backup_state
from tether.volume.backup import hosts
from tether.volume.backup import rpcapi as backup_rpcapi
from tether.volume import quota

LOG = logging.getLogger(__name__)
B = fields.BackupStatus
# A backup's fields under Cinder's names (Backup.encode_record).
_NAMES = {'name': 'display_name', 'description': 'display_description'}
_FIELDS = ('id', 'user_id', 'project_id', 'volume_id', 'host',
           'availability_zone', 'container', 'parent_id', 'status',
           'fail_reason', 'size', 'name', 'description', 'service_metadata',
           'service', 'object_count', 'temp_snapshot_id',
           'num_dependent_backups', 'snapshot_id', 'data_timestamp',
           'restore_volume_id', 'created_at', 'updated_at')


def _text(value):
    if hasattr(value, 'isoformat'):
        return value.isoformat()
    return value


def export_record(context, backup_id):
    """``{'backup_service', 'backup_url'}`` of an available backup."""
    backup = backups.get(context, backup_id)
    if backup.status != B.AVAILABLE:
        raise backup_exception.InvalidBackupStatus(
            backup_id=backup_id, status=backup.status, expected=B.AVAILABLE)
    record = {_NAMES.get(f, f): _text(getattr(backup, f)) for f in _FIELDS}
    record.update(metadata=dict(backup.metadata), encryption_key_id=None,
                  temp_volume_id=None, deleted=False, deleted_at=None,
                  driver_info={})
    url = base64.b64encode(jsonutils.dump_as_bytes(record)).decode('ascii')
    return {'backup_service': backup.service, 'backup_url': url}


def decode(backup_url):
    """The record a backup_url holds; InvalidBackupRecord if none."""
    try:
        record = jsonutils.loads(base64.b64decode(backup_url.encode(),
                                                  validate=True))
    except (binascii.Error, ValueError, UnicodeError) as exc:
        raise backup_exception.InvalidBackupRecord(
            reason='backup_url is not base64 of JSON (%s)' % exc)
    if not isinstance(record, dict):
        raise backup_exception.InvalidBackupRecord(
            reason='backup_url holds no JSON object')
    if not uuidutils.is_uuid_like(record.get('id')):
        raise backup_exception.InvalidBackupRecord(
            reason='it has no backup id')
    size = record.get('size')
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise backup_exception.InvalidBackupRecord(
            reason='it has no size (an integer of GiB)')
    return record


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _insert_counted(context, values, limits):
    if db_backups.exists_in_transaction(context, values['id']):
        raise backup_exception.InvalidBackup(
            reason='backup %s already exists in the database' % values['id'])
    db_quotas.consume_in_transaction(context, values['project_id'],
                                     backup_state.quota_of(values), limits)
    return db_backups.create_in_transaction(context, values)


def import_record(context, backup_service, backup_url):
    """A backup (``creating``, of volume 0000…, counted against the
    caller's quota) that a tether-backup makes ``available`` once it
    found in its repository what the record names."""
    record = decode(backup_url)
    host, zone = hosts.choose(context, 'an import')
    values = {
        'id': record['id'], 'project_id': context.project_id,
        'user_id': context.user_id,
        'volume_id': backup_state.IMPORT_VOLUME_ID,
        'host': host, 'availability_zone': zone,
        'name': record.get('display_name'),
        'description': record.get('display_description'),
        'status': B.CREATING, 'size': record['size'], 'object_count': 0,
        'use_quota': True,
    }
    for key in ('name', 'description'):
        if values[key] is not None and not isinstance(values[key], str):
            values[key] = str(values[key])
        if values[key] is not None:
            values[key] = values[key][:255]
    limits = quota.get_limits(context, context.project_id)
    backup = _insert_counted(context, values, limits)
    record['backup_service'] = backup_service
    try:
        backup_rpcapi.get().import_record(context, backup, record)
    except Exception:
        LOG.exception('Could not cast the import of backup %s', backup.id)
        backup_state.fail_create(context, backup,
                                 'no backup service took it')
    return backup
