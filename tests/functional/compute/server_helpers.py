"""Helpers of the server tests: volumes, servers, lock probes, libvirt.

A test takes the ``cloud`` fixture (each module defines it with
cloud_fixture) and asks it for projects; every volume and server a
project makes through it is deleted after the test, servers first (their
volumes come back ``available``).
Servers are made with openstacksdk, as a user makes them; raw HTTP is
for microversions, shapes and what a client library would not send.
"""

import contextlib
import os
import subprocess
import uuid

from oslo_config import cfg

from tests.functional import helpers
from tether.db.compute import service as db_compute_services
from tether.db.compute import instance as db_instances
from tether.drivers import qemu_img
from tether import exception

CONF = cfg.CONF
GiB = helpers.GiB
URI = 'qemu:///system'
# What the aio fixture waits for, at most (boots take about a second).
TIMEOUT = 60
# The microversions the tests name.
LATEST = '2.90'
ATTACHMENTS_API = '3.27'


@contextlib.contextmanager
def host_at_version(server_id, version):
    """Within the block, the service record of the server's compute host
    says it is at service ``version`` (an older tether-compute)."""
    ctx = helpers.admin_context()
    host = db_instances.get(ctx, server_id).host
    (service,) = [s for s in db_compute_services.get_all(
        ctx, binary='tether-compute') if s.host == host]
    db_compute_services.update(ctx, service.id, {'version': version})
    try:
        yield
    finally:
        db_compute_services.update(ctx, service.id,
                                   {'version': service.version})


def root_bdm(volume_id, **extra):
    return dict({'uuid': volume_id, 'source_type': 'volume',
                 'destination_type': 'volume', 'boot_index': 0}, **extra)


def server_body(volume_id, name=None, **server):
    """The body of POST /servers booting from ``volume_id``."""
    body = {'name': name or 'srv-' + uuid.uuid4().hex[:6],
            'flavorRef': '1', 'imageRef': '', 'networks': 'none',
            'block_device_mapping_v2': [root_bdm(volume_id)]}
    body.update(server)
    return {'server': body}


def message(resp):
    """The message of an error body ({"badRequest": {"message": ...}})."""
    body = resp.json()
    assert len(body) == 1, body
    return next(iter(body.values()))['message']


# The volume files ------------------------------------------------------------

def locked(path, fmt='raw'):
    """Whether the volume service's qemu-img would be refused the file.

    ``qemu-img resize`` to the current size needs the write lock and
    changes nothing; for raw files ``qemu-img info`` without -U takes no
    lock and cannot tell (see tests/functional/virt/conftest.py).
    """
    size = qemu_img.info(path, fmt, force_share=True).virtual_size
    try:
        qemu_img.resize(path, fmt, size)
    except exception.ImageLocked:
        return True
    return False


def file_size(path, fmt='raw'):
    return qemu_img.info(path, fmt, force_share=True).virtual_size


# libvirt (a process edge: what the hypervisor reports) -----------------------

def domain(server_id):
    return 'instance-' + server_id


def virsh(*args, check=True):
    return subprocess.run(['virsh', '-c', URI] + list(args), check=check,
                          capture_output=True, text=True, timeout=60)


def domain_state(server_id):
    """'running', 'shut off', ... or None when libvirt has no such guest."""
    proc = virsh('domstate', domain(server_id), check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def disk_capacity(server_id, target):
    """The size of disk ``target`` (``sdb``) as the guest's QEMU sees it."""
    out = virsh('domblkinfo', domain(server_id), target).stdout
    for line in out.splitlines():
        key, _, value = line.partition(':')
        if key.strip() == 'Capacity':
            return int(value)
    raise AssertionError('no capacity in %r' % out)


# Projects and what they make -------------------------------------------------

class Project:
    """One member of one project: openstacksdk, raw HTTP, and makers."""

    def __init__(self, cloud, user, project, roles):
        self.cloud = cloud
        self.aio, self.wait = cloud.aio, cloud.wait
        self.conn = cloud.aio.sdk(user, project, roles)
        self.user, self.project, self.roles = user, project, roles

    def compute(self, version=None, roles=None):
        """Raw HTTP to /v2.1/{project} as this user."""
        return self.aio.compute_http(self.user, self.project,
                                     roles or self.roles, version)

    def volumes(self, version=ATTACHMENTS_API):
        """Raw HTTP to /v3/{project} as this user."""
        return self.aio.http(self.user, self.project, self.roles, version)

    def compute_usage(self):
        """{resource: in_use} of the project's compute quota (instances,
        cores, ram ...), as its member reads it."""
        resp = self.compute().get('/os-quota-sets/%s/detail' % self.project)
        assert resp.status_code == 200, resp.text
        return {resource: value['in_use'] for resource, value in
                resp.json()['quota_set'].items() if resource != 'id'}

    # Volumes

    def volume(self, size=1, image_id=None):
        """A new available volume (a dict of the volume API's fields),
        made of the image ``image_id`` if given."""
        extra = {'imageRef': image_id} if image_id else {}
        volume = helpers.create_volume(self.volumes(), size=size,
                                       wait_for=self.wait, **extra)
        self.cloud.volumes.append((self, volume['id']))
        return volume

    def show_volume(self, volume_id):
        resp = self.volumes().get('/volumes/%s' % volume_id)
        assert resp.status_code == 200, resp.text
        return resp.json()['volume']

    def attachments(self, volume_id):
        """The attachment records of a volume (the attachments API)."""
        resp = self.volumes().get('/attachments?volume_id=%s' % volume_id)
        assert resp.status_code == 200, resp.text
        return resp.json()['attachments']

    def assert_free(self, volume_id):
        """The volume is available, and nothing holds or reserves it."""
        volume = self.show_volume(volume_id)
        assert volume['status'] == 'available', volume
        assert volume['attachments'] == []
        assert self.attachments(volume_id) == []
        assert not locked(self.aio.volume_path(volume_id))

    def wait_volume(self, volume_id, status):
        def check():
            volume = self.show_volume(volume_id)
            return volume if volume['status'] == status else None
        return self.wait(check, timeout=TIMEOUT, interval=0.05,
                         what='volume %s %s' % (volume_id, status))

    def wait_volume_gone(self, volume_id):
        """Wait until the volume is deleted, its file with it."""
        http = self.volumes()
        self.wait(lambda: http.get('/volumes/%s' % volume_id).status_code
                  == 404, timeout=TIMEOUT, interval=0.05,
                  what='volume %s deleted' % volume_id)
        assert not os.path.exists(self.aio.volume_path(volume_id))

    # Servers

    def boot(self, volume=None, name=None, wait=True, flavor='1', **attrs):
        """Boot a server of ``flavor`` from ``volume`` (a new one if not
        given) with openstacksdk; wait until it is ACTIVE unless told not
        to."""
        volume_id = (volume or self.volume())['id']
        attrs.setdefault('block_device_mapping', [root_bdm(volume_id)])
        server = self.conn.compute.create_server(
            name=name or 'srv-' + uuid.uuid4().hex[:6], flavor_id=flavor,
            networks='none', **attrs)
        self.cloud.servers.append(server.id)
        if wait:
            server = self.wait_server(server.id)
        return server

    def track(self, server_id):
        """Delete this server after the test (one made by raw HTTP)."""
        self.cloud.servers.append(server_id)

    def server(self, server_id, version=LATEST):
        """GET /servers/{id} (raw, at ``version``) as a dict."""
        resp = self.compute(version).get('/servers/%s' % server_id)
        assert resp.status_code == 200, resp.text
        return resp.json()['server']

    def wait_server(self, server_id, status='ACTIVE'):
        """Wait until the server has ``status`` and no task; the server
        (an openstacksdk Server)."""
        def check():
            server = self.conn.compute.get_server(server_id)
            if server.status == 'ERROR' and status != 'ERROR':
                raise AssertionError('server %s went ERROR: %s'
                                     % (server_id, server.fault))
            if server.status == status and server.task_state is None:
                return server
            return None
        return self.wait(check, timeout=TIMEOUT, interval=0.05,
                         what='server %s %s' % (server_id, status))

    def wait_gone(self, server_id):
        http = self.compute()
        self.wait(lambda: http.get('/servers/%s' % server_id).status_code
                  == 404, timeout=TIMEOUT, interval=0.05,
                  what='server %s deleted' % server_id)

    def instance_action(self, server_id, request_id, version='2.51'):
        """GET os-instance-actions/{request_id}: the action with its
        events (from 2.51 without their tracebacks for non-admins)."""
        resp = self.compute(version).get(
            '/servers/%s/os-instance-actions/%s' % (server_id, request_id))
        assert resp.status_code == 200, resp.text
        return resp.json()['instanceAction']

    def wait_events(self, server_id, request_id, expected):
        """Wait until the action of ``request_id`` has the events
        ``expected`` ([(event, result)]); the action."""
        def check():
            action = self.instance_action(server_id, request_id)
            events = [(e['event'], e['result']) for e in action['events']]
            return action if events == expected else None
        return self.wait(check, timeout=TIMEOUT, interval=0.05,
                         what='events %s of %s' % (expected, request_id))

    def action(self, server_id, body, version=None):
        """POST /servers/{id}/action (raw)."""
        return self.compute(version).post('/servers/%s/action' % server_id,
                                          json=body)


# Servers from images ---------------------------------------------------------

def base_dir():
    return os.path.join(CONF.instances_path,
                        CONF.image_cache.subdirectory_name)


def cached(image_id):
    return os.path.join(base_dir(), image_id)


def root_disk(server_id):
    return os.path.join(CONF.instances_path, server_id, 'disk')


def leftovers(image_id):
    """Files of a download or conversion of the image in the cache."""
    if not os.path.isdir(base_dir()):
        return []
    return [n for n in os.listdir(base_dir())
            if n.startswith(image_id) and n != image_id]


def boot_image(user, image, wait=True, flavor='1', **attrs):
    """A server from ``image`` as openstacksdk (and Tempest) boot one:
    imageRef, no block device mapping."""
    server = user.conn.compute.create_server(
        name='img-' + uuid.uuid4().hex[:6], image_id=image.id,
        flavor_id=flavor, networks='none', **attrs)
    user.track(server.id)
    if wait:
        server = user.wait_server(server.id)
    return server


class Cloud:
    """The projects of one test and everything they made."""

    def __init__(self, aio, wait):
        self.aio, self.wait = aio, wait
        self.servers = []
        self.volumes = []

    def project(self, roles=None):
        """A member (or ``roles``) of a new project."""
        return Project(self, 'user-' + uuid.uuid4().hex[:8],
                       'project-' + uuid.uuid4().hex[:8], roles)

    def admin(self):
        return Project(self, 'admin', 'admin', None)

    def cleanup(self):
        admin = self.admin().compute()
        for server_id in self.servers:
            resp = admin.delete('/servers/%s' % server_id)
            assert resp.status_code in (204, 404), resp.text
        for server_id in self.servers:
            self.wait(lambda: admin.get('/servers/%s' % server_id)
                      .status_code == 404, timeout=TIMEOUT, interval=0.05,
                      what='server %s deleted after the test' % server_id)
        for project, volume_id in self.volumes:
            # Best effort: a test that failed may leave one attached to
            # something else (the aio's state directory goes anyway).
            project.volumes().delete('/volumes/%s' % volume_id)


def cloud_fixture(aio, wait):
    """The body of the ``cloud`` fixture of each test module: a Cloud,
    cleaned up after the test."""
    made = Cloud(aio, wait)
    yield made
    made.cleanup()
