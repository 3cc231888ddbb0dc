"""Fixtures of the compute API tests: hosts and servers as database rows.

tether-aio runs one real tether-compute (named after CONF.host). The
hosts made here are written with the calls tether-compute makes
(register, heartbeat) under names of their own, and the servers with the
call the compute API makes (create_counted, without candidate hosts):
the rows of a test setup, removed afterwards.
"""

import datetime
import uuid

from oslo_utils import timeutils
import pytest
import sqlalchemy as sa

from tether.compute import instance_state
from tether import context as t_context
from tether.db.compute import instance_action as db_actions
from tether.db.compute import instance as db_instances
from tether.db.compute import models
from tether.db.compute import service as db_services
from tether.db import session

STATS = {
    'memory_mb': 8192, 'memory_mb_used': 1024, 'vcpus': 4,
    'vcpus_used': 1, 'local_gb': 100, 'local_gb_used': 10,
    'running_vms': 1, 'hypervisor_type': 'QEMU',
    'hypervisor_version': 8002000, 'cpu_info': {'arch': 'x86_64'},
}


# The address of the hosts made here (the aio's own has another).
HOST_IP = '192.0.2.10'


def admin_context():
    return t_context.get_admin_context()


def unique(prefix):
    return '%s-%s' % (prefix, uuid.uuid4().hex[:8])


class Hosts:
    """Compute service records made by a test, removed after it."""

    def __init__(self):
        self.ids = []

    def add(self, host=None, zone=None, stats=STATS, traits=(),
            down=False, disabled=False, host_ip=HOST_IP):
        host = host or unique('fake-compute')
        ctx = admin_context()
        row = db_services.register(
            ctx, host, 'tether-compute', 'tether-compute', zone, 1, '1.0',
            hypervisor_hostname=host + '.example.org', host_ip=host_ip)
        self.ids.append(row.id)
        db_services.heartbeat(ctx, row.id, stats=stats, traits=traits)
        values = {}
        if down:
            # As after a crash: the last heartbeat is old.
            values['heartbeat_at'] = (timeutils.utcnow() -
                                      datetime.timedelta(days=1))
        if disabled:
            values.update(disabled=True, disabled_reason='maintenance')
        if values:
            db_services.update(ctx, row.id, values)
        return db_services.get(ctx, row.id)

    def remove(self):
        ctx = admin_context()
        with session.COMPUTE.writing(ctx):
            ctx.session.execute(sa.delete(models.ComputeService).where(
                models.ComputeService.id.in_(self.ids)))


@pytest.fixture
def compute_hosts(aio):
    hosts = Hosts()
    yield hosts
    hosts.remove()


class Servers:
    """Instance rows (and their actions) made by a test, removed after."""

    def __init__(self):
        self.uuids = []

    def add(self, project_id, user_id='user-a', host=None, name='vm'):
        """A server of ``project_id`` with its ``create`` action, made
        by ``user_id`` (returns the instance and the request id)."""
        ctx = t_context.RequestContext(user_id=user_id,
                                       project_id=project_id,
                                       roles=['member'])
        instance_uuid = str(uuid.uuid4())
        flavor = {'id': '1', 'name': 'm1.nano', 'memory_mb': 64,
                  'vcpus': 1, 'root_gb': 0, 'ephemeral_gb': 0, 'swap': 0,
                  'extra_specs': {}}
        values = {
            'uuid': instance_uuid, 'project_id': project_id,
            'user_id': user_id, 'display_name': name, 'hostname': name,
            'availability_zone': 'nova', 'flavor': flavor,
            'memory_mb': 64, 'vcpus': 1, 'vm_state': 'active',
            'task_state': None, 'power_state': 1, 'locked': False,
            'metadata': {}, 'deleted': False,
        }
        # Counted against the project's quota, as the API counts a server.
        instance = instance_state.create_counted(
            ctx, values, [], [],
            db_actions.action_values(ctx, instance_uuid, 'create'))
        self.uuids.append(instance_uuid)
        if host is not None:
            instance = db_instances.update(admin_context(), instance_uuid,
                                           {'host': host, 'node': host})
        return instance, ctx.request_id

    def action(self, instance, action, project_id=None, user_id='user-a'):
        """Start another action on a server; returns its request id."""
        ctx = t_context.RequestContext(
            user_id=user_id, project_id=project_id or instance.project_id,
            roles=['member'])
        db_actions.action_start(ctx, instance.uuid, action)
        return ctx.request_id

    def remove(self):
        ctx = admin_context()
        for instance_uuid in self.uuids:
            # Its quota given back, as a delete gives it.
            instance_state.soft_delete_counted(ctx, instance_uuid)
        with session.COMPUTE.writing(ctx):
            ids = sa.select(models.InstanceAction.id).where(
                models.InstanceAction.instance_uuid.in_(self.uuids))
            ctx.session.execute(sa.delete(models.InstanceActionEvent).where(
                models.InstanceActionEvent.action_id.in_(ids)))
            ctx.session.execute(sa.delete(models.InstanceAction).where(
                models.InstanceAction.instance_uuid.in_(self.uuids)))
            ctx.session.execute(sa.delete(models.Instance).where(
                models.Instance.uuid.in_(self.uuids)))


@pytest.fixture
def servers(aio):
    made = Servers()
    yield made
    made.remove()
