"""tether's own processes in the integration deployment.

As an operator runs them (etc/systemd/): the two APIs under gunicorn with
the arguments of their units' ExecStart (gthread workers, the app
factories of ``tether.api.*.wsgi_app``) but another address and number of
workers, configured through ``TETHER_CONFIG_FILE``; ``tether-volume``,
``tether-backup`` and ``tether-compute`` as plain processes with
``--config-file``, and
``tether-manage db sync`` first. The commands are those of the
interpreter this runs under (tether's environment).
"""

import os
import re
import shlex
import signal
import sys
import sysconfig

from integration.processes import Process, children, run, wait_until
from integration.services import REPO, http_status

SCRIPTS = sysconfig.get_path('scripts')
BACKEND = 'int'

# The service user's credentials, in each section that authenticates.
SERVICE_CREDENTIALS = """\
project_domain_name = Default
user_domain_name = Default
project_name = service
username = {service_user}
password = {service_password}
"""

TETHER_CONF = """\
[DEFAULT]
host = {host}
state_path = {state}
transport_url = {transport_url}
auth_strategy = keystone
enabled_backends = {backend}
# Heartbeats often enough that a restarted service is soon seen up.
report_interval = 2
{extra}
[{backend}]
volume_driver = tether.drivers.volume.nfs.NfsDriver
# An absolute path: a directory used as an already-mounted share.
nfs_shares = {share}

# Every answer Tempest and the integration tests get is checked against
# the response its handler declares (a 500 that says how where not); the
# benchmarks run with the default, ignore, as operators do.
[api]
response_validation = {response_validation}

[database]
connection = {volume_db}

[compute_database]
connection = {compute_db}

[keystone_authtoken]
www_authenticate_uri = {keystone}
auth_url = {keystone}
auth_type = password
{credentials}service_token_roles_required = true

# How the compute service calls the volume API (Nova's [cinder]).
[volume]
auth_type = password
auth_url = {keystone}
{credentials}os_region_name = RegionOne

# How the volume service calls the compute API (Cinder's [nova]).
[compute]
auth_type = password
auth_url = {keystone}
{credentials}os_region_name = RegionOne

# How both call the image API, Glance (Nova's and Cinder's [glance]): the
# endpoint of type image in the catalog.
[image]
auth_type = password
auth_url = {keystone}
{credentials}os_region_name = RegionOne

[oslo_messaging_rabbit]
# Quorum queues are durable: the casts sent to a manager while it is down
# (or not yet consuming again) stay queued across a restart of RabbitMQ.
# With the default transient queues they are dropped, and their volumes
# stay creating until tether-volume restarts and reconciles them.
rabbit_quorum_queue = true

[libvirt]
virt_type = qemu
nfs_mount_point_base = {state}/mnt
file_backed_memory = {file_backed_memory}
{sections}"""


def tether_conf(sections='', file_backed_memory=0, **values):
    """tether.conf of the deployment: TETHER_CONF filled in with
    ``values``; ``sections`` (a template of more sections, which may name
    ``{keystone}`` and ``{credentials}`` too) at its end."""
    values['credentials'] = SERVICE_CREDENTIALS.format(**values)
    return TETHER_CONF.format(sections=sections.format(**values),
                              file_backed_memory=file_backed_memory,
                              **values)


def script(name):
    return os.path.join(SCRIPTS, name)


def unit_gunicorn_args(unit, port, workers):
    """gunicorn's arguments in the ExecStart of a systemd unit of
    etc/systemd/, bound to 127.0.0.1:``port`` with ``workers`` workers."""
    with open(os.path.join(REPO, 'etc', 'systemd', unit)) as f:
        text = f.read().replace('\\\n', ' ')
    exec_start = re.search(r'^ExecStart=(.*)$', text, re.M).group(1)
    args = shlex.split(exec_start)[1:]   # without the virtualenv's gunicorn
    args[args.index('--bind') + 1] = '127.0.0.1:%d' % port
    args[args.index('--workers') + 1] = str(workers)
    return args


class API:
    """One tether API under gunicorn, run as its systemd unit runs it (the
    unit's gunicorn arguments), on 127.0.0.1:``port`` with ``workers``
    workers."""

    def __init__(self, name, port, workers, conf_path, log_dir, env):
        self.name = name
        self.port = port
        self.url_root = 'http://127.0.0.1:%d' % port
        argv = [sys.executable, '-m', 'gunicorn'] + unit_gunicorn_args(
            name + '.service', port, workers)
        self.process = Process(name, argv,
                               os.path.join(log_dir, name + '.log'),
                               dict(env, TETHER_CONFIG_FILE=conf_path))

    def start(self):
        self.process.start()
        # The version document needs no token, and its answer means a
        # worker has built the application (configuration, policy, RPC).
        wait_until(self._answers, 60, interval=0.2,
                   what='%s on port %d' % (self.name, self.port))
        return self

    def _answers(self):
        if not self.process.running():
            raise RuntimeError('%s exited:\n%s'
                               % (self.name, self.process.log_tail()))
        return http_status(self.url_root + '/') in (200, 300)

    def workers(self):
        """PIDs of the gunicorn workers (children of the master)."""
        return sorted(children(self.process.pid))

    def kill_worker(self):
        """SIGKILL one worker, as a crash ends it; wait until the master
        has started another. The PID of the one killed."""
        before = self.workers()
        os.kill(before[0], signal.SIGKILL)
        wait_until(lambda: (before[0] not in self.workers() and
                            len(self.workers()) == len(before)), 60,
                   what='gunicorn to replace worker %d' % before[0])
        return before[0]

    def restart(self):
        """Stop the master and its workers (SIGTERM: they finish the
        requests they have) and start them again."""
        self.stop()
        self.start()

    def stop(self):
        self.process.stop()


class Manager:
    """``tether-volume``, ``tether-backup`` or ``tether-compute``."""

    def __init__(self, binary, conf_path, log_dir, env):
        self.binary = binary
        self.conf_path = conf_path
        self.log_dir = log_dir
        self.env = env
        self.process = None

    def _command(self):
        """The console script; or, in an environment installed before
        the script was added to setup.cfg, its entry point run by this
        interpreter."""
        if os.path.exists(script(self.binary)):
            return [script(self.binary)]
        module = self.binary.split('-', 1)[1]
        return [sys.executable, '-c',
                'import sys; from tether.cmd import %s; '
                'sys.exit(%s.main())' % (module, module)]

    def start(self):
        self.process = Process(
            self.binary, self._command() + ['--config-file',
                                            self.conf_path],
            os.path.join(self.log_dir, self.binary + '.log'),
            self.env).start()
        return self

    def stop(self):
        if self.process is not None:
            self.process.stop()

    def kill(self):
        self.process.kill()


def db_sync(conf_path, env):
    return run([script('tether-manage'), '--config-file', conf_path,
                'db', 'sync', '--database', 'all'], env=env, timeout=300)
