"""An in-process tether-aio on a temporary state directory, and its clients."""

import contextlib
import os
import shutil
import uuid

import openstack
from oslo_config import cfg
import requests
from tests.functional import libvirt_fixture

from tether.cmd import aio as aio_cmd
from tether.cmd import aio_clouds
from tether.compute import service as compute_service
from tether.conf import aio as conf_aio
from tether.conf import backend as conf_backend
from tether import context as t_context
from tether.db.compute import instance as db_instances
from tether.db import session
from tether.policies import enforcer
from tether.volume.backup import service as backup_service
from tether.volume import service

CONF = cfg.CONF


class AIO:
    """tether-aio as a test uses it: URLs, clients, and a restart button."""

    def __init__(self, state_dir):
        if not hasattr(CONF, 'aio_transport_url'):
            CONF.register_opts(conf_aio.aio_opts)
        CONF([], project='tether')
        # Heartbeats fast enough that a restarted backend is schedulable.
        CONF.set_override('report_interval', 1)
        # Every answer of every functional test is checked against the
        # response its handler declares (tether.api.responses).
        CONF.set_override('response_validation', 'error', group='api')
        # The guests of most tests have no OS, which would let a stop wait
        # out the whole shutdown_timeout: they are powered off at once. A
        # test of a guest with an OS sets it (tests/functional/compute/
        # test_real_guest.py).
        CONF.set_override('shutdown_timeout', 0)
        # So would a soft reboot (test_real_guest_reboot.py sets it).
        CONF.set_override('wait_soft_reboot_seconds', 0, group='libvirt')
        self.state_dir = str(state_dir)
        # QEMU (libvirt-qemu) must reach the volume files: pytest's
        # temporary directories are closed to others.
        libvirt_fixture.ensure_libvirt()
        self.own_share_dir = libvirt_fixture.share_dir()
        # The guests' directories hold the root disks of servers from
        # images, which QEMU opens: a directory others pass through too.
        self.instances_dir = libvirt_fixture.share_dir('tether-instances-')
        CONF.set_override('instances_path', self.instances_dir)
        # A volume made of a small image is available in well under a
        # second: look at it more often than Nova's 3 s.
        CONF.set_override('block_device_allocate_retries_interval', 0.2)
        conf_backend.register_backend_opts(CONF, aio_cmd.BACKEND)
        CONF.set_override('nfs_shares', [self.own_share_dir],
                          group=aio_cmd.BACKEND)
        self.impl = aio_cmd.AllInOne(self.state_dir, 0)

    def start(self):
        self.impl.start()
        self.volume_url = self.impl.volume_url
        self.root_url = self.volume_url.rsplit('/v3', 1)[0]
        self.compute_url = self.impl.compute_url
        self.compute_root_url = self.compute_url.rsplit('/v2.1', 1)[0]
        # The root of the aio's Glance.
        self.image_url = self.impl.image_url

    def stop(self):
        self.impl.stop()
        self.remove_guests()
        shutil.rmtree(self.own_share_dir, ignore_errors=True)
        shutil.rmtree(self.instances_dir, ignore_errors=True)
        session.VOLUME.reset()
        session.COMPUTE.reset()
        enforcer.reset()

    def remove_guests(self):
        """Remove the guests of every server this aio knows of."""
        ctx = t_context.get_admin_context()
        for instance in db_instances.get_all(ctx, deleted=None):
            libvirt_fixture.remove_domains('instance-' + instance.uuid)

    @property
    def share_dir(self):
        return CONF[aio_cmd.BACKEND].nfs_shares[0]

    def volume_path(self, volume_id):
        return os.path.join(self.share_dir, 'volume-%s' % volume_id)

    def restart_volume_service(self, before_start=None):
        """Stop the volume managers, run ``before_start``, start them again.

        The API keeps serving; what the managers left half done is
        reconciled on start, as after a crash.
        """
        self.impl.volume_service.stop()
        if before_start is not None:
            before_start()
        self.impl.volume_service = service.VolumeService([aio_cmd.BACKEND])
        self.impl.volume_service.start()

    def restart_backup_service(self, while_down=None):
        """Stop tether-backup (work under way stops at its next piece),
        run ``while_down``, start a new one: it takes up what the last
        one left, as after a crash."""
        self.impl.backup_service.stop()
        try:
            if while_down is not None:
                while_down()
        finally:
            service = backup_service.BackupService()
            service.start()
            self.impl.backup_service = service

    @property
    def backup_dir(self):
        """[backup] posix_path: the backups' directories."""
        return CONF.backup.posix_path

    def restart_compute_service(self, while_down=None):
        """Stop tether-compute, run ``while_down``, start a new one (its
        recovery settles what the last one left, as after a crash)."""
        self.impl.compute_service.stop()
        try:
            if while_down is not None:
                while_down()
        finally:
            service = compute_service.ComputeService()
            service.start()
            self.impl.compute_service = service

    # Clients ---------------------------------------------------------------

    def sdk(self, user=None, project=None, roles=None):
        """An openstacksdk connection for one user (noauth token)."""
        user = user or 'user-' + uuid.uuid4().hex[:8]
        project = project or 'project-' + uuid.uuid4().hex[:8]
        token = '%s:%s' % (user, project)
        if roles:
            token += ':' + ','.join(roles)
        # The cloud of tether-aio's clouds.yaml, for this user.
        conn = openstack.connection.Connection(
            **aio_clouds.noauth_cloud(token, self.impl.served()))
        conn.test_user, conn.test_project = user, project
        return conn

    def admin(self):
        return self.sdk('admin', 'admin')

    def http(self, user=None, project=None, roles=None, version=None):
        """A requests session speaking to the volume API as one user."""
        return HTTP(self, user or 'user-' + uuid.uuid4().hex[:8],
                    project or 'project-' + uuid.uuid4().hex[:8], roles,
                    version)

    def compute_http(self, user=None, project=None, roles=None,
                     version=None):
        """A requests session speaking to the compute API as one user."""
        return HTTP(self, user or 'user-' + uuid.uuid4().hex[:8],
                    project or 'project-' + uuid.uuid4().hex[:8], roles,
                    version, service='compute')


class HTTP:
    """Raw HTTP to /v3/{project}, for what a client library would not send."""

    def __init__(self, aio, user, project, roles, version,
                 service='volume'):
        url = aio.compute_url if service == 'compute' else aio.volume_url
        self.base = '%s/%s' % (url, project)
        self.user, self.project = user, project
        token = '%s:%s' % (user, project)
        if roles:
            token += ':' + ','.join(roles)
        self.session = requests.Session()
        self.session.headers['X-Auth-Token'] = token
        if version:
            self.session.headers['OpenStack-API-Version'] = '%s %s' % (
                service, version)

    def request(self, method, path, json=None, data=None, headers=None,
                **kwargs):
        return self.session.request(method, self.base + path, json=json,
                                    data=data, headers=headers, **kwargs)

    def get(self, path, **kwargs):
        return self.request('GET', path, **kwargs)

    def post(self, path, json=None, **kwargs):
        return self.request('POST', path, json=json, **kwargs)

    def put(self, path, json=None, **kwargs):
        return self.request('PUT', path, json=json, **kwargs)

    def delete(self, path, **kwargs):
        return self.request('DELETE', path, **kwargs)


@contextlib.contextmanager
def running_aio(state_dir):
    aio = AIO(state_dir)
    aio.start()
    try:
        yield aio
    finally:
        aio.stop()
