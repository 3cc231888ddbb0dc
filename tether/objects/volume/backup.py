"""The Backup object: one row of backups with its metadata (it crosses
RPC to tether-backup)."""

from oslo_versionedobjects import fields

from tether.objects import base
from tether.objects import fields as t_fields


@base.TetherObjectRegistry.register
class Backup(base.TetherObject):
    # Version 1.0: initial version
    VERSION = '1.0'

    fields = {
        'id': fields.UUIDField(),
        'project_id': fields.StringField(),
        'user_id': fields.StringField(nullable=True),
        'volume_id': fields.StringField(),
        'snapshot_id': fields.StringField(nullable=True),
        'host': fields.StringField(nullable=True),
        'availability_zone': fields.StringField(nullable=True),
        'name': fields.StringField(nullable=True),
        'description': fields.StringField(nullable=True),
        'container': fields.StringField(nullable=True),
        'service_metadata': fields.StringField(nullable=True),
        'service': fields.StringField(nullable=True),
        'status': t_fields.BackupStatusField(),
        'fail_reason': fields.StringField(nullable=True),
        'size': fields.IntegerField(),
        'object_count': fields.IntegerField(default=0),
        'parent_id': fields.StringField(nullable=True),
        'num_dependent_backups': fields.IntegerField(default=0),
        'temp_snapshot_id': fields.StringField(nullable=True),
        'restore_volume_id': fields.StringField(nullable=True),
        'data_timestamp': fields.DateTimeField(nullable=True),
        'use_quota': fields.BooleanField(default=True),
        'metadata': fields.DictOfNullableStringsField(default={}),
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
    }

    _COLUMNS = ('id', 'project_id', 'user_id', 'volume_id', 'snapshot_id',
                'host', 'availability_zone', 'name', 'description',
                'container', 'service_metadata', 'service', 'status',
                'fail_reason', 'size', 'object_count', 'parent_id',
                'num_dependent_backups', 'temp_snapshot_id',
                'restore_volume_id', 'data_timestamp', 'use_quota',
                'created_at', 'updated_at')

    @classmethod
    def from_db(cls, row):
        values = {key: getattr(row, key) for key in cls._COLUMNS}
        values['metadata'] = {m.key: m.value for m in row.backup_metadata}
        return cls.from_trusted_values(values)

    @property
    def is_incremental(self):
        return self.parent_id is not None

    @property
    def has_dependent_backups(self):
        return self.num_dependent_backups > 0
