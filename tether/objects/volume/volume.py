"""The Volume object: one row of volumes with its metadata."""

from oslo_utils import versionutils
from oslo_versionedobjects import fields

from tether.objects import base
from tether.objects import fields as t_fields
from tether.objects.volume import attachment

# An extend that waits for the hypervisor keeps its target size (GiB, as
# a string) and its quota reservations (a JSON list) in admin metadata.
EXTEND_NEW_SIZE = 'extend_new_size'
EXTEND_RESERVATIONS = 'extend_reservations'

# An upload to an image keeps the id of the image it fills, a re-image
# the id of the image it writes, in admin metadata while they run (a
# restart finds them there).
UPLOAD_IMAGE_ID = 'upload_image_id'
REIMAGE_IMAGE_ID = 'reimage_image_id'

# Admin metadata keys that readers of a volume's metadata may see (they
# shadow user metadata of the same key).
VISIBLE_ADMIN_METADATA_KEYS = ('readonly', 'attached_mode', EXTEND_NEW_SIZE)
# Metadata keys users cannot set, change or delete.
RESERVED_METADATA_KEYS = (EXTEND_NEW_SIZE,)


@base.TetherObjectRegistry.register
class Volume(base.TetherObject):
    # Version 1.0: initial version
    # Version 1.1: attachments (those attached)
    # Version 1.2: image_metadata (of a volume made from an image),
    #              use_quota
    # Version 1.3: snapshot_id, source_volid
    # Version 1.4: group_id
    # Version 1.5: status may be 'reverting' (only revert_to_snapshot,
    #              RPC 1.8, sends a volume in it; the API refuses a revert
    #              while the pin holds RPC below 1.8)
    VERSION = '1.5'

    fields = {
        'id': fields.UUIDField(),
        'project_id': fields.StringField(),
        'user_id': fields.StringField(nullable=True),
        'host': fields.StringField(nullable=True),
        'name': fields.StringField(nullable=True),
        'description': fields.StringField(nullable=True),
        'size': fields.IntegerField(),
        'availability_zone': fields.StringField(nullable=True),
        'status': t_fields.VolumeStatusField(),
        'previous_status': fields.StringField(nullable=True),
        'attach_status': t_fields.VolumeAttachStatusField(),
        'volume_type_id': fields.StringField(),
        'volume_type_name': fields.StringField(nullable=True),
        'bootable': fields.BooleanField(),
        'multiattach': fields.BooleanField(),
        'provider_location': fields.StringField(nullable=True),
        'metadata': fields.DictOfNullableStringsField(),
        'admin_metadata': fields.DictOfNullableStringsField(),
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
        'launched_at': fields.DateTimeField(nullable=True),
        'attachments': fields.ListOfObjectsField('Attachment', default=[]),
        # What the volume knows of the image it was made from (Cinder's
        # volume_image_metadata): image_id, image_name, checksum ...
        'image_metadata': fields.DictOfNullableStringsField(default={}),
        # False once the volume gave its quota back (its create failed on
        # the backend).
        'use_quota': fields.BooleanField(default=True),
        # What it was made of: a snapshot, or another volume (a clone).
        'snapshot_id': fields.StringField(nullable=True, default=None),
        'source_volid': fields.StringField(nullable=True, default=None),
        # The generic volume group it is in.
        'group_id': fields.StringField(nullable=True, default=None),
    }

    # Volume version -> the Attachment version it carries (for a backport
    # without a version manifest).
    obj_relationships = {'attachments': [('1.1', '1.0'), ('1.2', '1.0'),
                                         ('1.3', '1.0'), ('1.4', '1.0')]}

    _COLUMNS = ('id', 'project_id', 'user_id', 'host', 'name', 'description',
                'size', 'availability_zone', 'status', 'previous_status',
                'attach_status', 'volume_type_id', 'volume_type_name',
                'bootable', 'multiattach',
                'provider_location', 'created_at', 'updated_at',
                'launched_at', 'use_quota', 'snapshot_id', 'source_volid',
                'group_id')

    @classmethod
    def from_db(cls, db_volume, volume_type_name=None, relations=True):
        """The object of a row; a caller that knows the type's name says so,
        which saves reading it back. Without ``relations`` the metadata and
        attachments are left unset (a row locked for a transition, whose
        relations are not read under the lock)."""
        related = None
        if relations:
            related = {
                'metadata': {m.key: m.value
                             for m in db_volume.volume_metadata},
                'admin_metadata': {
                    m.key: m.value for m in db_volume.volume_admin_metadata},
                'attachments': [attachment.Attachment.from_db(a)
                                for a in db_volume.attached],
                'image_metadata': {
                    m.key: m.value for m in db_volume.volume_glance_metadata},
            }
        values = {key: getattr(db_volume, key) for key in cls._COLUMNS}
        if volume_type_name is not None:
            values['volume_type_name'] = volume_type_name
        return cls.from_columns(values, related)

    @classmethod
    def from_columns(cls, values, related=None):
        """The object of ``values`` ({column: value}, each of _COLUMNS) and
        of ``related``, its ``metadata``, ``admin_metadata``,
        ``attachments`` and ``image_metadata`` when they were read."""
        if related is not None:
            values.update(related)
        return cls.from_trusted_values(values)

    @classmethod
    def from_row(cls, row, related):
        """The object of ``row`` (the values of _COLUMNS, in that order)
        and of ``related`` (as for :meth:`from_columns`)."""
        return cls.from_trusted_row(cls._COLUMNS, row, related)

    def obj_load_attr(self, attrname):
        """A volume sent without what it was made of (by a service before
        Volume 1.3, which made none of snapshots or volumes) was made of
        neither; one sent before Volume 1.4 is in no group."""
        if attrname in ('snapshot_id', 'source_volid', 'group_id'):
            setattr(self, attrname, None)
            return
        super().obj_load_attr(attrname)

    @property
    def image_id(self):
        """The image the volume was made from (its image metadata names
        it), or None."""
        if not self.obj_attr_is_set('image_metadata'):
            return None
        return self.image_metadata.get('image_id')

    def visible_metadata(self):
        """The metadata readers see: the user's, shadowed by the visible
        admin metadata keys."""
        metadata = dict(self.metadata)
        for key in VISIBLE_ADMIN_METADATA_KEYS:
            if key in self.admin_metadata:
                metadata[key] = self.admin_metadata[key]
        return metadata

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        target = versionutils.convert_version_to_tuple(target_version)
        if target < (1, 4):
            primitive.pop('group_id', None)
        if target < (1, 3):
            primitive.pop('snapshot_id', None)
            primitive.pop('source_volid', None)
        if target < (1, 2):
            primitive.pop('image_metadata', None)
            primitive.pop('use_quota', None)
        if target < (1, 1):
            primitive.pop('attachments', None)

    @property
    def name_on_disk(self):
        return 'volume-%s' % self.id

    @property
    def backend_host(self):
        """``host@backend`` without the ``#pool`` suffix."""
        return self.host.partition('#')[0] if self.host else None
