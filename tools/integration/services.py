"""The services tether runs on: RabbitMQ, PostgreSQL, Keystone, libvirt
(and Glance: tether.cmd.glance, as tether-aio runs it).

Each starts in its own directory under the deployment's scratch directory,
on 127.0.0.1 and on ports of its own (none of the defaults: a tether-aio,
a packaged RabbitMQ or PostgreSQL may run on the same machine), and stops
without leaving a process behind. The commands are those of
shared/reference/components-on-this-machine.md.
"""

import os
import shutil
import subprocess
import urllib.error
import urllib.request

from integration.processes import Process, alive, run, wait_until
from tether.cmd.keystone import runner as keystone_runner

PG_BIN = '/usr/lib/postgresql/15/bin'
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def _chown(path, user):
    shutil.chown(path, user, user)


def http_status(url, timeout=5):
    """The status of a GET of ``url``; 0 if nothing answered."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


class RabbitMQ:
    """A RabbitMQ node of its own: node name, ports, data and epmd."""

    def __init__(self, root, ports, env, tag):
        self.dir = os.path.join(root, 'rabbitmq')
        self.port = ports()
        self.dist_port = ports()
        self.epmd_port = ports()
        self.node = 'tether-%s@localhost' % tag
        self.user, self.password = 'tether', 'rabbit-' + tag
        self.env = dict(
            env,
            RABBITMQ_NODENAME=self.node,
            RABBITMQ_NODE_IP_ADDRESS='127.0.0.1',
            RABBITMQ_NODE_PORT=str(self.port),
            RABBITMQ_DIST_PORT=str(self.dist_port),
            ERL_EPMD_ADDRESS='127.0.0.1',
            ERL_EPMD_PORT=str(self.epmd_port),
            RABBITMQ_CONFIG_FILE=os.path.join(self.dir, 'rabbitmq.conf'),
            RABBITMQ_ENABLED_PLUGINS_FILE=os.path.join(self.dir, 'plugins'),
            RABBITMQ_MNESIA_BASE=os.path.join(self.dir, 'mnesia'),
            RABBITMQ_LOG_BASE=os.path.join(self.dir, 'log'),
            RABBITMQ_PID_FILE=os.path.join(self.dir, 'rabbitmq.pid'),
            RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=(
                '-kernel inet_dist_use_interface {127,0,0,1}'))
        self.process = None

    @property
    def url(self):
        return 'rabbit://%s:%s@127.0.0.1:%d/' % (self.user, self.password,
                                                 self.port)

    def ctl(self, *args, timeout=90):
        return run(['rabbitmqctl', '-n', self.node] + list(args),
                   env=self.env, timeout=timeout)

    def setup(self):
        for sub in ('', 'mnesia', 'log'):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
            _chown(os.path.join(self.dir, sub), 'rabbitmq')
        with open(self.env['RABBITMQ_CONFIG_FILE'], 'w') as f:
            f.write('listeners.tcp.default = 127.0.0.1:%d\n'
                    'loopback_users.guest = true\n'
                    # A small scratch disk must not block publishers.
                    'disk_free_limit.absolute = 50MB\n' % self.port)
        with open(self.env['RABBITMQ_ENABLED_PLUGINS_FILE'], 'w') as f:
            f.write('[].\n')

    def start(self):
        """Start the node (as the user rabbitmq) and wait until it serves."""
        self.process = Process(
            'rabbitmq', ['rabbitmq-server'],
            os.path.join(self.dir, 'log', 'console.log'), self.env).start()
        wait_until(self._ready, 120, interval=0.5,
                   what='RabbitMQ to start (%s)' % self.process.log_path)

    def _ready(self):
        if not self.process.running():
            raise RuntimeError('rabbitmq-server exited:\n'
                               + self.process.log_tail())
        proc = subprocess.run(
            ['rabbitmqctl', '-n', self.node, 'await_startup',
             '--timeout', '5'], env=self.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return proc.returncode == 0

    def create_user(self):
        self.ctl('add_user', self.user, self.password)
        self.ctl('set_permissions', self.user, '.*', '.*', '.*')

    def stop(self):
        if self.process is None:
            return
        if self.process.running():
            try:
                self.ctl('shutdown', timeout=60)
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
        self.process.stop()
        # epmd daemonized itself out of the group; it is ours alone (its
        # own port), so stop it too.
        subprocess.run(['epmd', '-port', str(self.epmd_port), '-kill'],
                       env=self.env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def restart(self):
        """Stop the broker entirely and start it again (the queues and
        the messages in them that were not durable are gone)."""
        self.ctl('shutdown', timeout=60)
        self.process.stop()
        self.start()


class PostgreSQL:
    """A PostgreSQL 15 cluster of its own (initdb), with the two databases
    of tether, Glance's and Keystone's, each service's own role owning
    its databases."""

    # database: the role that owns it
    DATABASES = {'tether_volume': 'tether', 'tether_compute': 'tether',
                 'glance': 'glance', 'keystone': 'keystone'}

    def __init__(self, root, ports, env, tag):
        self.dir = os.path.join(root, 'postgresql')
        self.data = os.path.join(self.dir, 'data')
        self.port = ports()
        self.env = env
        self.passwords = {role: '%s-db-%s' % (role, tag)
                          for role in set(self.DATABASES.values())}
        self.started = False

    def url(self, database):
        """The SQLAlchemy URL of ``database``, as its owner."""
        role = self.DATABASES[database]
        return 'postgresql+psycopg2://%s:%s@127.0.0.1:%d/%s' % (
            role, self.passwords[role], self.port, database)

    def _as_postgres(self, argv, timeout=120):
        return run(['runuser', '-u', 'postgres', '--'] + argv,
                   env=self.env, timeout=timeout, cwd='/')

    def psql(self, sql, database='postgres'):
        """Run SQL as the superuser; its rows, unaligned."""
        return self._as_postgres(
            [PG_BIN + '/psql', '-h', self.dir, '-p', str(self.port), '-U',
             'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-qAt',
             '-c', sql])

    def setup(self):
        os.makedirs(self.dir, exist_ok=True)
        _chown(self.dir, 'postgres')
        self._as_postgres([PG_BIN + '/initdb', '-D', self.data,
                           '--auth-local=trust',
                           '--auth-host=scram-sha-256', '-U', 'postgres',
                           '--no-sync', '-E', 'UTF8'])

    def start(self):
        self._as_postgres([
            PG_BIN + '/pg_ctl', '-D', self.data,
            '-l', os.path.join(self.dir, 'postgresql.log'), '-w',
            '-o', '-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off '
                  '-c max_connections=200' % (self.port, self.dir),
            'start'])
        self.started = True

    def create_databases(self):
        for role, password in sorted(self.passwords.items()):
            self.psql("CREATE ROLE %s LOGIN PASSWORD '%s'" % (role, password))
        for name, role in self.DATABASES.items():
            self.psql('CREATE DATABASE %s OWNER %s' % (name, role))

    def stop(self):
        if self.started:
            self._as_postgres([PG_BIN + '/pg_ctl', '-D', self.data,
                               '-m', 'fast', '-w', 'stop'])
            self.started = False


class Keystone:
    """Keystone from PyPI, in a virtualenv of its own, under gunicorn, with
    its database on the deployment's PostgreSQL (``database_url``; on
    SQLite, two Tempest workers made it answer 500 "database is locked")
    and fernet tokens: tether.cmd.keystone.runner's (as tether-aio
    --keystone runs it), in a process of this deployment's."""

    REQUIREMENTS = os.path.join(HERE, 'keystone-requirements.txt')

    def __init__(self, root, ports, env, tag, venv, database_url):
        self.database_url = database_url
        self.dir = os.path.join(root, 'keystone')
        self.port = ports()
        self.env = keystone_runner.env_of(self.dir, env)
        self.venv = venv
        self.admin_password = 'admin-' + tag
        self.process = None

    @property
    def url(self):
        return keystone_runner.url(self.port)

    @classmethod
    def ensure_venv(cls, venv, log=print):
        """Create the virtualenv, unless it holds keystone-requirements.txt
        as it is now."""
        keystone_runner.ensure_venv(venv, cls.REQUIREMENTS, log=log,
                                    timeout=900)

    def manage(self, *args):
        return keystone_runner.manage(self.dir, self.venv, *args,
                                      env=self.env)

    def setup(self):
        # bcrypt at its lowest cost: Tempest's dynamic credentials make a
        # user and take a token for each class, and at Keystone's default
        # (12) the hashing was a third of Keystone's CPU in the volume
        # suite. The passwords are made up and die with the deployment.
        keystone_runner.write_config(self.dir, self.port,
                                     database_url=self.database_url,
                                     workers=2, threads=4,
                                     password_hash_rounds=4)
        keystone_runner.setup(self.dir, self.venv, self.admin_password,
                              self.port, env=self.env)

    def start(self):
        # Keystone parses sys.argv: gunicorn gets everything from its
        # configuration file, and no argument.
        self.process = Process(
            'keystone', [os.path.join(self.venv, 'bin', 'gunicorn')],
            os.path.join(self.dir, 'log', 'gunicorn.log'), self.env,
            cwd=self.dir).start()
        wait_until(lambda: self._answers(), 60, interval=0.2,
                   what='Keystone at %s' % self.url)

    def _answers(self):
        if not self.process.running():
            raise RuntimeError('Keystone exited:\n'
                               + self.process.log_tail())
        return http_status(self.url) == 200

    def stop(self):
        if self.process is not None:
            self.process.stop()


class Libvirt:
    """libvirt's qemu:///system: started by tools/start-libvirt.sh if it
    does not answer yet, and then stopped again; left alone if it was
    running (a libvirtd may be shared)."""

    URI = 'qemu:///system'

    def __init__(self, env):
        self.env = env
        self.started = False

    def answers(self):
        return subprocess.run(
            ['virsh', '-c', self.URI, 'version'], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=30).returncode == 0

    def start(self):
        self.started = not self.answers()
        # Also when it runs: start-libvirt.sh fixes the mode of /dev/kvm.
        run([os.path.join(REPO, 'tools', 'start-libvirt.sh')], env=self.env,
            timeout=180)

    def virsh(self, *args, check=True):
        return run(['virsh', '-c', self.URI] + list(args), env=self.env,
                   check=check, timeout=120)

    def domain_exists(self, name):
        return subprocess.run(
            ['virsh', '-c', self.URI, 'domstate', name],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, timeout=60).returncode == 0

    def remove_domain(self, name):
        """Destroy and undefine a domain; gone already is fine."""
        self.virsh('destroy', name, check=False)
        self.virsh('undefine', name, check=False)

    def stop(self):
        if not self.started:
            return
        for name in ('libvirtd', 'virtlogd'):
            try:
                with open('/run/%s.pid' % name) as f:
                    pid = int(f.read().strip())
                os.kill(pid, 15)
            except (OSError, ValueError):
                continue
            wait_until(lambda: not alive(pid), 60,
                       what='%s (pid %d) to stop' % (name, pid))
        self.started = False
