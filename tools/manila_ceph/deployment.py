"""A real Manila 23 on a one-node Ceph, beside tether: start, stop.

    python3 tools/manila_ceph/deployment.py install    # the virtualenv only
    python3 tools/manila_ceph/deployment.py run [DIR]  # start; Ctrl-C stops
    python3 tools/manila_ceph/deployment.py run --keystone CLOUD [DIR]

``run`` starts, in DIR (default: a new scratch directory), each as a
child of this process on 127.0.0.1 and on ports of its own: PostgreSQL
and RabbitMQ (tools/integration/services.py, as the integration job runs
them), a one-node Ceph with CephFS (ceph.py), and Manila from PyPI in a
virtualenv of its own: manila-api under gunicorn, manila-scheduler and
manila-share with two backends, the CephFS native driver (share type
``cephfs``, protocol CEPHFS, cephx access) and the DummyDriver (share type
``default``, NFS and CIFS, fake exports). It writes ``manila.json`` into
DIR (the endpoint and the share types), prints the endpoint, and on
SIGINT or SIGTERM stops every process it started by its PID and leaves
nothing running; DIR can then be removed.

Authentication is ``noauthv2`` by default: ``X-Auth-Token:
<user>:<project>`` and every caller is an admin. Use UUID-shaped user and
project ids: Manila's response schemas of resource locks (microversion
2.81+, and the locks ``allow_access`` makes at 2.82) require UUIDs and
answer 400 otherwise, after the lock is made.

With ``--keystone CLOUD`` (an administrator's cloud of clouds.yaml;
``Deployment(keystone=keystone.Keystone(...))``), Manila's API checks
Keystone tokens instead (keystonemiddleware, ``auth_strategy =
keystone``): Manila registers its service user and its ``sharev2``
endpoints in that Keystone as it starts, and removes them as it stops
(keystone.py).
"""

import argparse
import json
import os
import signal
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
# tether itself (tether.cmd.venvs), from this checkout.
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from integration.processes import (  # noqa: E402
    PortAllocator, Process, run, wait_until)
from integration.services import PostgreSQL, RabbitMQ, http_status  # noqa
from manila_ceph import ceph as ceph_mod  # noqa: E402
from manila_ceph import keystone as keystone_mod  # noqa: E402
from tether.cmd import venvs  # noqa: E402

REQUIREMENTS = os.path.join(HERE, 'requirements.txt')
# Debian's rados and cephfs bindings (python3-rados, python3-cephfs), for
# the CephFS driver; built for Debian's Python 3.11, they load in any 3.11.
SYSTEM_CEPH = ('rados.cpython-311-x86_64-linux-gnu.so',
               'cephfs.cpython-311-x86_64-linux-gnu.so', 'ceph_argparse.py')
DIST_PACKAGES = '/usr/lib/python3/dist-packages'
SHARE_TYPES = {
    'default': {'driver_handles_share_servers': False,
                'share_backend_name': 'DUMMY'},
    'cephfs': {'driver_handles_share_servers': False,
               'share_backend_name': 'CEPHFSNATIVE'},
}
ADMIN_TOKEN = ('0d5c1a3fa0a54aa0a6c1e5d0b7c2e001:'
               '0d5c1a3fa0a54aa0a6c1e5d0b7c2e002')

MANILA_CONF = """\
[DEFAULT]
host = tether-manila
my_ip = 127.0.0.1
state_path = {dir}/state
log_dir = {dir}/log
auth_strategy = {auth_strategy}
api_paste_config = {dir}/etc/api-paste.ini
osapi_share_listen = 127.0.0.1
osapi_share_listen_port = {port}
osapi_share_workers = 1
transport_url = {transport_url}
enabled_share_backends = cephfsnative,dummy
enabled_share_protocols = NFS,CIFS,CEPHFS
default_share_type = default
# Capabilities reach the scheduler soon after manila-share starts.
report_interval = 2
periodic_interval = 5

[database]
connection = {database_url}

[oslo_concurrency]
lock_path = {dir}/state/lock

[cephfsnative]
share_driver = manila.share.drivers.cephfs.driver.CephFSDriver
driver_handles_share_servers = False
share_backend_name = CEPHFSNATIVE
cephfs_conf_path = {ceph_conf}
cephfs_protocol_helper_type = CEPHFS
cephfs_auth_id = {ceph_auth_id}
cephfs_cluster_name = ceph
cephfs_filesystem_name = {fs_name}

[dummy]
# The wheel ships it (manila/tests/share/drivers/dummy.py).
share_driver = manila.tests.share.drivers.dummy.DummyDriver
driver_handles_share_servers = False
share_backend_name = DUMMY
dummy_driver_default_driver_method_delay = 0

{authtoken}"""

# gunicorn's entry point: manila.wsgi.api parses sys.argv with
# oslo.config, which must not see gunicorn's arguments.
WSGI_SHIM = """\
import sys
sys.argv = ['manila-api', '--config-file', {conf!r}]
from manila.wsgi.api import application  # noqa: E402,F401
"""


def default_venv():
    """Beside Glance's (tether.cmd.glance.child.default_venv)."""
    if os.geteuid() == 0:
        return '/var/lib/tether-aio/manila-venv'
    return os.path.join(os.path.expanduser('~/.local/share/tether'),
                        'manila-venv')


def _link_system_ceph(venv):
    """Only Debian's Ceph bindings, not the rest of its dist-packages."""
    ceph_dir = os.path.join(venv, 'system-ceph')
    os.makedirs(ceph_dir, exist_ok=True)
    for name in SYSTEM_CEPH:
        os.symlink(os.path.join(DIST_PACKAGES, name),
                   os.path.join(ceph_dir, name))
    site = run([os.path.join(venv, 'bin', 'python'), '-c',
                'import sysconfig; print(sysconfig.get_path("purelib"))'])
    with open(os.path.join(site.strip(), 'tether-system-ceph.pth'),
              'w') as f:
        f.write(ceph_dir + '\n')


def ensure_venv(venv, log=print):
    """Make ``venv`` with requirements.txt unless it holds it as it is
    now; seconds taken (0.0 when there already)."""
    return venvs.ensure(venv, REQUIREMENTS, 'manila', log=log,
                        finish=_link_system_ceph)


class ManilaDatabase(PostgreSQL):
    DATABASES = {'manila': 'manila'}


class Deployment:
    """Everything ``run`` starts; :meth:`start` then :meth:`stop`."""

    def __init__(self, path, venv=None, log=print, keystone=None,
                 run_tag=None):
        """``keystone``: a keystone.Keystone to authenticate against
        (noauthv2 without one). ``run_tag``: the TETHER_INTEGRATION_RUN
        of every process started (a deployment of which this is a part
        finds them all by it; by default one of its own)."""
        self.dir = os.path.abspath(path)
        self.venv = venv or default_venv()
        self.log = log
        self.keystone = keystone
        self.tag = 'manila%d' % os.getpid()
        ports = PortAllocator()
        self.env = dict(os.environ,
                        TETHER_INTEGRATION_RUN=run_tag or self.tag)
        self.env.pop('CEPH_CONF', None)
        self.postgres = ManilaDatabase(self.dir, ports, self.env, self.tag)
        self.rabbit = RabbitMQ(self.dir, ports, self.env, self.tag)
        self.ceph = ceph_mod.Ceph(self.dir, ports, self.env)
        self.port = ports()
        self.endpoint = 'http://127.0.0.1:%d/' % self.port
        self.processes = []
        self.timings = {}

    def _step(self, name, began):
        self.timings[name] = round(time.monotonic() - began, 1)
        self.log('manila: %s (%.1fs)' % (name, self.timings[name]))
        return time.monotonic()

    def start(self):
        t = t0 = time.monotonic()
        ensure_venv(self.venv, log=self.log)
        t = self._step('virtualenv', t)
        self.postgres.setup()
        self.postgres.start()
        self.postgres.create_databases()
        t = self._step('postgresql', t)
        self.rabbit.setup()
        self.rabbit.start()
        self.rabbit.create_user()
        t = self._step('rabbitmq', t)
        self.ceph.start()
        t = self._step('ceph', t)
        self._configure()
        run([self._bin('manila-manage'), '--config-file', self.conf, 'db',
             'sync'], env=self.env, timeout=300)
        t = self._step('db sync', t)
        if self.keystone is not None:
            self.keystone.register(self.endpoint)
            t = self._step('keystone', t)
        self._start_services()
        t = self._step('manila services', t)
        self._share_types()
        self._step('total', t0)
        with open(os.path.join(self.dir, 'manila.json'), 'w') as f:
            json.dump({'endpoint': self.endpoint,
                       'auth': 'keystone' if self.keystone else 'noauthv2',
                       'ceph_conf': self.ceph.conf,
                       'share_types': sorted(SHARE_TYPES),
                       'timings': self.timings}, f, indent=2)
        return self

    def _bin(self, name):
        return os.path.join(self.venv, 'bin', name)

    def _configure(self):
        etc = os.path.join(self.dir, 'etc')
        for sub in ('etc', 'log', 'state/lock'):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
        with open(os.path.join(self.venv, 'etc/manila/api-paste.ini')) as f:
            paste = f.read()
        with open(os.path.join(etc, 'api-paste.ini'), 'w') as f:
            f.write(paste.replace('/etc/manila/healthcheck_disable',
                                  os.path.join(self.dir, 'state',
                                               'healthcheck_disable')))
        self.conf = os.path.join(etc, 'manila.conf')
        with open(self.conf, 'w') as f:
            f.write(MANILA_CONF.format(
                dir=self.dir, port=self.port,
                transport_url=self.rabbit.url,
                auth_strategy='keystone' if self.keystone else 'noauthv2',
                authtoken=(self.keystone.authtoken_conf()
                           if self.keystone else ''),
                database_url=self.postgres.url('manila'),
                ceph_conf=self.ceph.conf,
                ceph_auth_id=ceph_mod.MANILA_AUTH_ID,
                fs_name=ceph_mod.FS_NAME))
        with open(os.path.join(etc, 'manila_wsgi.py'), 'w') as f:
            f.write(WSGI_SHIM.format(conf=self.conf))

    def _start(self, name, argv):
        process = Process(name, argv,
                          os.path.join(self.dir, 'log', name + '.out'),
                          self.env, cwd=self.dir).start()
        self.processes.append(process)
        return process

    def _start_services(self):
        conf = ['--config-file', self.conf]
        self._start('manila-scheduler', [self._bin('manila-scheduler')] + conf)
        self._start('manila-share', [self._bin('manila-share')] + conf)
        self._start('manila-api', [
            self._bin('gunicorn'), '--chdir', os.path.join(self.dir, 'etc'),
            '-b', '127.0.0.1:%d' % self.port, '-w', '1', '--threads', '4',
            '--timeout', '120', 'manila_wsgi:application'])
        wait_until(self._api_answers, 120, interval=0.3,
                   what='manila-api on port %d' % self.port)
        # A share scheduled before manila-share's first report of its
        # pools would fail (NoValidHost): wait until both backends are up
        # (the scheduler asks for their capabilities as it starts).
        wait_until(self._backends_up, 120, interval=0.5,
                   what='manila-share with both backends up')

    def _request(self, path, method='GET', body=None, version='2.82'):
        """One call to the API as an administrator: the noauthv2 admin,
        or Keystone's user ``manila``."""
        token = (self.keystone.token() if self.keystone is not None
                 else ADMIN_TOKEN)
        req = urllib.request.Request(
            self.endpoint + path, method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={'X-Auth-Token': token,
                     'Content-Type': 'application/json',
                     'X-OpenStack-Manila-API-Version': version})
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.loads(resp.read() or b'null')

    def _check(self):
        for process in self.processes:
            if not process.running():
                raise RuntimeError('%s exited:\n%s'
                                   % (process.name, process.log_tail()))

    def _api_answers(self):
        self._check()
        return http_status(self.endpoint) in (200, 204, 300)

    def _backends_up(self):
        self._check()
        services = self._request('v2/services')['services']
        up = {s['host'] for s in services
              if s['binary'] == 'manila-share' and s['state'] == 'up'}
        return {'tether-manila@cephfsnative', 'tether-manila@dummy'} <= up

    def _share_types(self):
        for name, specs in SHARE_TYPES.items():
            self._request('v2/types', 'POST', {'share_type': {
                'name': name,
                'share_type_access:is_public': True,
                'extra_specs': {k: str(v) for k, v in specs.items()}}})

    def stop(self, unregister=True):
        """Stop every process started, each by its PID (its process
        group), the services before what they use; with ``unregister``,
        remove Manila from the Keystone it registered in."""
        for process in reversed(self.processes):
            process.stop(timeout=60)
        self.processes = []
        self.ceph.stop()
        self.rabbit.stop()
        self.postgres.stop()
        if self.keystone is not None and unregister:
            self.keystone.unregister()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('command', choices=['install', 'run'])
    parser.add_argument('dir', nargs='?',
                        help='state directory (default: a new one in /tmp)')
    parser.add_argument('--venv', default=None,
                        help='Manila virtualenv (default: %s)'
                        % default_venv())
    parser.add_argument('--keystone', metavar='CLOUD',
                        help='authenticate with this Keystone: an '
                        'administrator\'s cloud of clouds.yaml (default: '
                        'noauthv2)')
    args = parser.parse_args(argv)
    if args.command == 'install':
        ensure_venv(args.venv or default_venv())
        return 0
    path = args.dir or tempfile.mkdtemp(prefix='tether-manila-')
    os.makedirs(path, exist_ok=True)
    os.chmod(path, 0o755)   # PostgreSQL and RabbitMQ run as their users
    keystone = (keystone_mod.Keystone.from_cloud(args.keystone)
                if args.keystone else None)
    dep = Deployment(path, venv=args.venv, keystone=keystone)

    def _stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, _stop)
    try:
        dep.start()
        print('manila ready: %s (state in %s; Ctrl-C stops it)'
              % (dep.endpoint, dep.dir), flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        dep.stop()
        print('manila stopped; %s can be removed' % dep.dir, flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
