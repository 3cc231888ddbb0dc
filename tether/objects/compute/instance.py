"""The Instance object: a server of the compute service, sent over RPC."""

from oslo_utils import timeutils
from oslo_versionedobjects import fields

from tether.objects import base
from tether.objects import fields as t_fields


def fault_of(exc, code=500):
    """An instance's ``fault`` for an exception (what the API shows of a
    server in ERROR)."""
    return {'code': code, 'message': str(exc)[:255] or type(exc).__name__,
            'details': '%s: %s' % (type(exc).__name__, exc),
            'created': timeutils.utcnow().strftime('%Y-%m-%dT%H:%M:%SZ')}


@base.TetherObjectRegistry.register
class Instance(base.TetherObject):
    # Version 1.0: initial version
    VERSION = '1.0'

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
        # The flavor as it was at boot: id, name, memory_mb, vcpus,
        # root_gb, ephemeral_gb, swap, extra_specs.
        'flavor': t_fields.JSONObjectField(),
        'memory_mb': fields.IntegerField(),
        'vcpus': fields.IntegerField(),
        'vm_state': t_fields.VmStateField(),
        'task_state': t_fields.TaskStateField(nullable=True),
        'power_state': fields.IntegerField(),
        'launched_at': fields.DateTimeField(nullable=True),
        'terminated_at': fields.DateTimeField(nullable=True),
        'locked': fields.BooleanField(),
        'metadata': t_fields.JSONObjectField(),
        'fault': t_fields.JSONObjectField(nullable=True),
        'deleted': fields.BooleanField(),
        'deleted_at': fields.DateTimeField(nullable=True),
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
    }

    @property
    def name(self):
        """The guest's name on the hypervisor."""
        return 'instance-%s' % self.uuid

    @property
    def status(self):
        return t_fields.server_status(self.vm_state, self.task_state)
