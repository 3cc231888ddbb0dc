"""How the integration tests talk to the deployment: the ``openstack`` CLI
(a process per command, with the deployment's clouds.yaml: see
tests/openstack_cli.py) and openstacksdk."""

import json
import os
import re
import uuid

# tools/ is on sys.path (conftest.py puts it there, before this loads).
from integration import processes
from tests import openstack_cli

GiB = 1024 ** 3
ERROR_VOLUME_STATES = ('error', 'error_extending', 'error_deleting')
# The line of the tiny test guest (tools/guest/) once it has booted: it
# names the image it booted from by that image's marker.
GUEST_UP = re.compile(r'^TETHER-GUEST-UP marker=(\S+)', re.M)
# A TCG guest boots in 3-6 s on an idle machine and took up to 21 s
# under heavy load (tools/guest/README.rst).
GUEST_TIMEOUT = 180


class CLIError(Exception):
    def __init__(self, argv, returncode, output):
        super().__init__('%s exited %d:\n%s'
                         % (' '.join(argv), returncode, output))
        self.returncode = returncode
        self.output = output


def wait_for(predicate, timeout=60, interval=0.2, what='condition'):
    """Poll ``predicate`` until it returns a true value; return that. A
    timeout fails the test (AssertionError)."""
    try:
        return processes.wait_until(predicate, timeout, interval, what)
    except TimeoutError as exc:
        raise AssertionError(str(exc)) from None


def unique(prefix):
    return 'int-%s-%s' % (prefix, uuid.uuid4().hex[:6])


def _json_document(out):
    """The JSON document the CLI printed, after what ``--wait`` prints
    before it (its progress, ``Complete``)."""
    lines = out.replace('\r', '\n').splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(('{', '[')):
            return json.loads(''.join(lines[i:]))
    raise AssertionError('no JSON in %r' % out)


class Cloud:
    """The deployment as its users see it."""

    def __init__(self, deployment):
        self.deployment = deployment
        self._connections = {}

    def project_id(self, name):
        return self.deployment.project_ids[name]

    # The openstack CLI ------------------------------------------------------

    def _run(self, user, args, volume_version=None, compute_version=None):
        argv = []
        if volume_version:
            argv += ['--os-volume-api-version', volume_version]
        if compute_version:
            argv += ['--os-compute-api-version', compute_version]
        argv += list(args)
        return openstack_cli.openstack_run(
            argv, env=self.deployment.cli_env(user), timeout=300)

    def openstack(self, user, *args, volume_version=None,
                  compute_version=None):
        """Run ``openstack ARGS`` as ``user``: its JSON output parsed when
        ``-f json`` is among the arguments, else its text."""
        proc = self._run(user, args, volume_version, compute_version)
        if proc.returncode != 0:
            raise CLIError(proc.args, proc.returncode,
                           proc.stdout + proc.stderr)
        if 'json' in args and '-f' in args:
            return _json_document(proc.stdout)
        return proc.stdout

    def openstack_fails(self, user, *args, volume_version=None,
                        compute_version=None):
        """Run ``openstack ARGS`` as ``user``, which must fail; its error
        output."""
        proc = self._run(user, args, volume_version, compute_version)
        assert proc.returncode != 0, ('%s succeeded:\n%s'
                                      % (' '.join(proc.args), proc.stdout))
        return proc.stdout + proc.stderr

    # openstacksdk -----------------------------------------------------------

    def sdk(self, user):
        if user not in self._connections:
            self._connections[user] = self.deployment.connection(user)
        return self._connections[user]

    def volume_request(self, user, method, path, version='3.0', **kwargs):
        """A request to the volume API (path under the project); the
        keystoneauth response, whatever its status."""
        return self.sdk(user).block_storage.request(
            path, method, microversion=version, raise_exc=False, **kwargs)

    def get_volume(self, user, volume_id, version='3.0'):
        """The volume as ``user`` sees it, or None if it is gone (404)."""
        resp = self.volume_request(user, 'GET', '/volumes/' + volume_id,
                                   version)
        if resp.status_code == 404:
            return None
        assert resp.status_code == 200, resp.text
        return resp.json()['volume']

    def wait_volume(self, user, volume_id, statuses, timeout=120):
        """Wait until the volume's status is one of ``statuses`` (an error
        state outside them fails at once); return the volume."""
        if isinstance(statuses, str):
            statuses = (statuses,)

        def settled():
            volume = self.get_volume(user, volume_id)
            assert volume is not None, 'volume %s is gone' % volume_id
            if volume['status'] in statuses:
                return volume
            assert volume['status'] not in ERROR_VOLUME_STATES, (
                'volume %s is %s, not %s' % (volume_id, volume['status'],
                                             '/'.join(statuses)))
            return None
        return wait_for(settled, timeout,
                        what='volume %s to be %s' % (volume_id,
                                                     '/'.join(statuses)))

    def wait_for_volume(self, user, volume_id, predicate, what,
                        timeout=120):
        """Wait until ``predicate(volume)``; return the volume."""
        def check():
            volume = self.get_volume(user, volume_id)
            return volume if volume and predicate(volume) else None
        return wait_for(check, timeout,
                        what='volume %s to be %s' % (volume_id, what))

    def wait_volume_gone(self, user, volume_id, timeout=120):
        wait_for(lambda: self.get_volume(user, volume_id) is None, timeout,
                 what='volume %s to be deleted' % volume_id)

    def volumes(self, user, all_projects=False):
        path = '/volumes/detail'
        if all_projects:
            path += '?all_tenants=1'
        resp = self.volume_request(user, 'GET', path)
        assert resp.status_code == 200, resp.text
        return resp.json()['volumes']

    def quota_usage(self, project):
        """{resource: (in_use, reserved)} of a project's volume quotas,
        from the quota-sets API (as the administrator)."""
        project_id = self.project_id(project)
        resp = self.volume_request(
            'admin', 'GET', '/os-quota-sets/%s?usage=true' % project_id)
        assert resp.status_code == 200, resp.text
        quota = resp.json()['quota_set']
        return {name: (quota[name]['in_use'], quota[name]['reserved'])
                for name in ('volumes', 'gigabytes')}

    def assert_quota_matches(self, project):
        """The project's quota usage is what its volumes add up to, with
        nothing reserved (call it when nothing is in flight)."""
        project_id = self.project_id(project)
        volumes = [v for v in self.volumes('admin', all_projects=True)
                   if v['os-vol-tenant-attr:tenant_id'] == project_id]
        usage = self.quota_usage(project)
        assert usage == {
            'volumes': (len(volumes), 0),
            'gigabytes': (sum(v['size'] for v in volumes), 0),
        }, (usage, [(v['id'], v['status'], v['size']) for v in volumes])
        return volumes

    # Servers ----------------------------------------------------------------

    def wait_server(self, user, server_id, status='ACTIVE', timeout=120):
        compute = self.sdk(user).compute

        def settled():
            server = compute.get_server(server_id)
            if server.status == status:
                return server
            assert server.status != 'ERROR', (
                'server %s is in ERROR: %s' % (server_id, server.fault))
            return None
        return wait_for(settled, timeout,
                        what='server %s to be %s' % (server_id, status))

    def wait_guest_up(self, user, server_id, timeout=GUEST_TIMEOUT):
        """The markers of the ``TETHER-GUEST-UP`` lines on the server's
        console (``openstack console log show``), once there is one: the
        tiny test guest booted, from the image of that marker. A guest
        that starts again (a rebuild) begins a new log."""
        def up():
            log = self.openstack(user, 'console', 'log', 'show', server_id)
            return GUEST_UP.findall(log)
        return wait_for(up, timeout, interval=0.5,
                        what='the guest of server %s to boot' % server_id)

    def disk_capacity(self, server_id, volume_id):
        """Bytes of the guest's disk backed by the volume's file, as
        libvirt (virsh domblkinfo) reports it."""
        domain = 'instance-' + server_id
        path = os.path.join(self.deployment.share_dir,
                            'volume-' + volume_id)
        target = self.disk_target(server_id, path)
        info = self.deployment.libvirt.virsh('domblkinfo', domain, target)
        for line in info.splitlines():
            key, _, value = line.partition(':')
            if key.strip() == 'Capacity':
                return int(value)
        raise AssertionError('no capacity in:\n' + info)

    def disk_target(self, server_id, path):
        """The guest's device (sdb ...) backed by ``path``, or None."""
        listing = self.deployment.libvirt.virsh(
            'domblklist', 'instance-' + server_id)
        for line in listing.splitlines():
            parts = line.split(None, 1)
            if len(parts) == 2 and parts[1].strip() == path:
                return parts[0]
        return None
