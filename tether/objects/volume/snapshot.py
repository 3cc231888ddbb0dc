"""The Snapshot object: one row of snapshots with its metadata."""

from oslo_utils import versionutils
from oslo_versionedobjects import fields

from tether.objects import base
from tether.objects import fields as t_fields


@base.TetherObjectRegistry.register
class Snapshot(base.TetherObject):
    # Version 1.0: initial version
    # Version 1.1: group_snapshot_id
    VERSION = '1.1'

    fields = {
        'id': fields.UUIDField(),
        'volume_id': fields.UUIDField(),
        'project_id': fields.StringField(),
        'user_id': fields.StringField(nullable=True),
        'name': fields.StringField(nullable=True),
        'description': fields.StringField(nullable=True),
        'status': t_fields.SnapshotStatusField(),
        'progress': fields.StringField(nullable=True),
        'volume_size': fields.IntegerField(),
        'provider_location': fields.StringField(nullable=True),
        'use_quota': fields.BooleanField(default=True),
        'metadata': fields.DictOfNullableStringsField(default={}),
        # The group snapshot it was taken in, if any.
        'group_snapshot_id': fields.StringField(nullable=True,
                                                default=None),
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
    }

    _COLUMNS = ('id', 'volume_id', 'project_id', 'user_id', 'name',
                'description', 'status', 'progress', 'volume_size',
                'provider_location', 'use_quota', 'created_at', 'updated_at',
                'group_snapshot_id')

    @classmethod
    def from_db(cls, row):
        values = {key: getattr(row, key) for key in cls._COLUMNS}
        values['metadata'] = {m.key: m.value for m in row.snapshot_metadata}
        return cls.from_trusted_values(values)

    def obj_load_attr(self, attrname):
        """A snapshot sent before Snapshot 1.1 is in no group snapshot."""
        if attrname == 'group_snapshot_id':
            self.group_snapshot_id = None
            return
        super().obj_load_attr(attrname)

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        target = versionutils.convert_version_to_tuple(target_version)
        if target < (1, 1):
            primitive.pop('group_snapshot_id', None)
