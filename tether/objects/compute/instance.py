"""The Instance object: a server of the compute service, sent over RPC."""

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from oslo_utils import versionutils
from oslo_versionedobjects import fields

from tether.objects import base
from tether.objects import fields as t_fields
from tether.objects.compute import status as server_status


def fault_of(exc, code=500):
    """An instance's ``fault`` for an exception (what the API shows of a
    server in ERROR)."""
    return {'code': code, 'message': str(exc)[:255] or type(exc).__name__,
            'details': '%s: %s' % (type(exc).__name__, exc),
            'created': timeutils.utcnow().strftime('%Y-%m-%dT%H:%M:%SZ')}


def _refuse(primitive, target_version, attr, values):
    """ValueError if the instance's ``attr`` is one of ``values``, which
    an Instance of ``target_version`` cannot hold (the API sends no such
    instance to a manager that old: the action needs a newer host)."""
    if primitive.get(attr) in values:
        raise ValueError('Instance %s is %s: Instance %s has no such %s'
                         % (primitive.get('uuid'), primitive[attr],
                            target_version, attr))


@base.TetherObjectRegistry.register
class Instance(base.TetherObject):
    # Version 1.0: initial version
    # Version 1.1: image_ref (the image a server was made of; '' for one
    #              that boots from a volume)
    # Version 1.2: task_state may be a rebuild's (rebuilding,
    #              rebuild_block_device_mapping, rebuild_spawning)
    # Version 1.3: pinned_availability_zone (the zone the server was asked
    #              for at create)
    # Version 1.4: key_name, key_data (the key pair of the create)
    # Version 1.5: locked_by, locked_reason (the lock server action);
    #              vm_state paused, suspended and their task states
    #              (pausing, unpausing, suspending, resuming); user_data,
    #              access_ip_v4, access_ip_v6 (as the create gave them)
    # Version 1.6: vm_state rescued and the task states rescuing,
    #              unrescuing (the rescue server action)
    # Version 1.7: the task states of a snapshot into an image
    #              (createImage, createBackup)
    # Version 1.8: config_drive ("True" if the guest has a config drive)
    VERSION = '1.8'

    fields = {
        'uuid': fields.UUIDField(),
        'project_id': fields.StringField(),
        'user_id': fields.StringField(),
        'display_name': fields.StringField(nullable=True),
        'display_description': fields.StringField(nullable=True),
        'hostname': fields.StringField(nullable=True),
        'host': fields.StringField(nullable=True),
        'node': fields.StringField(nullable=True),
        'availability_zone': fields.StringField(nullable=True),
        # The zone the create asked for (None: any zone would do), which
        # the server stays in (compute 2.96).
        'pinned_availability_zone': fields.StringField(nullable=True,
                                                       default=None),
        # The flavor as it was at boot: id, name, memory_mb, vcpus,
        # root_gb, ephemeral_gb, swap, extra_specs.
        'flavor': t_fields.JSONObjectField(),
        # The image of a server booted from an image (Nova's image_ref);
        # '' for a server that boots from a volume.
        'image_ref': fields.StringField(default=''),
        'memory_mb': fields.IntegerField(),
        'vcpus': fields.IntegerField(),
        'vm_state': t_fields.VmStateField(),
        'task_state': t_fields.TaskStateField(nullable=True),
        'power_state': fields.IntegerField(),
        'launched_at': fields.DateTimeField(nullable=True),
        'terminated_at': fields.DateTimeField(nullable=True),
        'locked': fields.BooleanField(),
        # Who locked the server (t_fields.LockedBy) and why, or None.
        'locked_by': fields.StringField(nullable=True, default=None),
        'locked_reason': fields.StringField(nullable=True, default=None),
        'metadata': t_fields.JSONObjectField(),
        # The key pair the server was created with: its name, and its
        # public key as it was then (None: none).
        'key_name': fields.StringField(nullable=True, default=None),
        'key_data': fields.StringField(nullable=True, default=None),
        # What the create (or a rebuild, an update) gave the server for
        # itself, kept as given: user data (base64) and access addresses.
        'user_data': fields.StringField(nullable=True, default=None),
        'access_ip_v4': fields.StringField(nullable=True, default=None),
        'access_ip_v6': fields.StringField(nullable=True, default=None),
        # "True" if the guest has a config drive, else "" (Nova's values).
        'config_drive': fields.StringField(default=''),
        'fault': t_fields.JSONObjectField(nullable=True),
        'deleted': fields.BooleanField(),
        'deleted_at': fields.DateTimeField(nullable=True),
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
    }

    # Fields whose column holds JSON text (and the column's name).
    _JSON_COLUMNS = {'flavor': 'flavor', 'metadata': 'metadata_',
                     'fault': 'fault'}

    @classmethod
    def column_names(cls):
        """The model's attributes an Instance is made of: its fields, the
        JSON ones under their columns' names."""
        return ([name for name in cls.fields
                 if name not in cls._JSON_COLUMNS]
                + list(cls._JSON_COLUMNS.values()))

    @classmethod
    def from_db(cls, row):
        return cls.from_columns({name: getattr(row, name)
                                 for name in cls.column_names()})

    @classmethod
    def from_columns(cls, columns):
        """The Instance of ``columns`` ({name of column_names(): value}),
        which it takes over."""
        for field, column in cls._JSON_COLUMNS.items():
            text = columns.pop(column)
            columns[field] = jsonutils.loads(text) if text else None
        columns['metadata'] = columns['metadata'] or {}
        return cls.from_trusted_values(columns)

    @classmethod
    def row_values(cls, values):
        """The column values of the field values ``values``."""
        out = dict(values)
        for field, column in cls._JSON_COLUMNS.items():
            if field in out:
                value = out.pop(field)
                out[column] = (jsonutils.dumps(value) if value is not None
                               else None)
        return out

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        target = versionutils.convert_version_to_tuple(target_version)
        if target < (1, 1):
            primitive.pop('image_ref', None)
        if target < (1, 3):
            primitive.pop('pinned_availability_zone', None)
        if target < (1, 4):
            primitive.pop('key_name', None)
            primitive.pop('key_data', None)
        if target < (1, 5):
            for name in ('locked_by', 'locked_reason', 'user_data',
                         'access_ip_v4', 'access_ip_v6'):
                primitive.pop(name, None)
            _refuse(primitive, target_version, 'vm_state',
                    (t_fields.VmState.PAUSED, t_fields.VmState.SUSPENDED))
            _refuse(primitive, target_version, 'task_state',
                    t_fields.TaskState.PAUSES_AND_SUSPENDS)
        if target < (1, 6):
            _refuse(primitive, target_version, 'vm_state',
                    (t_fields.VmState.RESCUED,))
            _refuse(primitive, target_version, 'task_state',
                    t_fields.TaskState.RESCUES)
        if target < (1, 7):
            _refuse(primitive, target_version, 'task_state',
                    t_fields.TaskState.IMAGE_SNAPSHOTS)
        if target < (1, 8):
            primitive.pop('config_drive', None)
        if target < (1, 2) and primitive.get('task_state') in \
                server_status.REBUILDS:
            # A manager before rebuilds could not read it; the API never
            # sends a rebuilding server to one (a rebuild needs a newer
            # host).
            raise ValueError('Instance %s is %s: Instance %s has no such '
                             'task_state' % (primitive.get('uuid'),
                                             primitive['task_state'],
                                             target_version))

    @property
    def is_image_backed(self):
        """Whether the root disk is a local disk made of an image."""
        return bool(self.obj_attr_is_set('image_ref') and self.image_ref)

    @property
    def name(self):
        """The guest's name on the hypervisor."""
        return 'instance-%s' % self.uuid

    @property
    def status(self):
        return server_status.server_status(self.vm_state, self.task_state)
