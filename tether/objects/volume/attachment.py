"""The Attachment object: one row of volume_attachment, JSON decoded."""

from oslo_serialization import jsonutils
from oslo_versionedobjects import fields

from tether.objects import base
from tether.objects import fields as t_fields


def _loads(text):
    return jsonutils.loads(text) if text else None


@base.TetherObjectRegistry.register
class Attachment(base.TetherObject):
    # Version 1.0: initial version
    VERSION = '1.0'

    fields = {
        'id': fields.UUIDField(),
        'volume_id': fields.UUIDField(),
        # The volume's project (attachments belong to it).
        'project_id': fields.StringField(nullable=True),
        'instance_uuid': fields.StringField(nullable=True),
        'attached_host': fields.StringField(nullable=True),
        'mountpoint': fields.StringField(nullable=True),
        'attach_time': fields.DateTimeField(nullable=True),
        'detach_time': fields.DateTimeField(nullable=True),
        'attach_status': t_fields.VolumeAttachStatusField(),
        'attach_mode': fields.StringField(nullable=True),
        'connection_info': t_fields.JSONObjectField(nullable=True),
        'connector': t_fields.JSONObjectField(nullable=True),
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
    }

    _COLUMNS = ('id', 'volume_id', 'project_id', 'instance_uuid',
                'attached_host', 'mountpoint', 'attach_time', 'detach_time',
                'attach_status', 'attach_mode', 'created_at', 'updated_at')

    @classmethod
    def from_db(cls, row):
        values = {key: getattr(row, key) for key in cls._COLUMNS}
        values['connection_info'] = _loads(row.connection_info)
        values['connector'] = _loads(row.connector)
        return cls.from_trusted_values(values)

    @property
    def connected(self):
        """Did a connector reach the backend (or is one on its way)?"""
        return bool(self.connector)
