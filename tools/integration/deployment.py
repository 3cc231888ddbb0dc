#!/usr/bin/env python3
"""A tether deployment on one machine, as an operator runs it.

RabbitMQ, PostgreSQL (tether's two databases and Glance's), Keystone
(from PyPI, in a virtualenv of its own, under gunicorn), Glance (the
image service, started as tether-aio starts it, tether/cmd/glance/, but
with Keystone's auth_token and its database on PostgreSQL) and libvirt,
then every tether daemon as a process of its own: tether-volume-api and
tether-compute-api under gunicorn (``api_workers`` workers each),
tether-volume and tether-compute, all with ``auth_strategy = keystone``
and ``transport_url = rabbit://``, finding the volume, compute and image
APIs in the catalog; and Manila on a one-node Ceph (manila.py,
tools/manila_ceph/ behind this Keystone), which tether-compute reaches
with its ``[share]`` credentials. Everything lives in one scratch
directory and listens on 127.0.0.1, on free ports.

The integration tests (tests/integration/) and the deployment benchmark
(tools/bench/volume_api.py --deployment) use it; by hand, as root, after
``tools/install-deps.sh integration`` and ``tools/install-deps.sh
manila``::

    python3 tools/integration/deployment.py     # start; Ctrl-C stops

It prints the clouds.yaml to use with the ``openstack`` CLI.

Keystone holds (besides the ``admin`` of ``keystone-manage bootstrap``):

========== ========= ====================================================
user       project   roles
========== ========= ====================================================
tether     service   admin, service (tether's services call each other
                     and Glance as it)
glance     service   service (Glance's auth_token validates tokens as it)
manila     service   admin, service (Manila's auth_token, and its share
                     types; tools/manila_ceph/keystone.py)
member     demo      member (implies reader)
reader     demo      reader
alt        alt       member
========== ========= ====================================================

and the catalog: ``block-storage`` and ``volumev3`` (the volume API, with
the project in the URL), ``compute``, ``image`` (Glance's root:
clients find its /v2 by version discovery) and ``sharev2`` (Manila's
/v2), in RegionOne.
"""

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time
import uuid

import yaml

from tether.cmd.glance import child as glance_child

# tools/, so that this runs as a script too.
TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

from integration import daemons  # noqa: E402
from integration import manila as int_manila  # noqa: E402
from integration import processes  # noqa: E402
from integration import services  # noqa: E402

REPO = services.REPO
DEFAULT_KEYSTONE_VENV = os.path.join(REPO, '.tox', 'integration-keystone')
REGION = 'RegionOne'

# user: (project, roles)
USERS = {
    # As doc/source/operator-guide.rst says: the managers act on the
    # volumes, attachments and servers of every project (admin), and send
    # the calls only another service may send (service).
    'tether': ('service', ['admin', 'service']),
    'member': ('demo', ['member']),
    'reader': ('demo', ['reader']),
    'alt': ('alt', ['member']),
    # Keystone lets a token be validated by a holder of the service role.
    'glance': ('service', ['service']),
}


class Deployment:
    """Start with ``start()``, stop with ``stop()`` (or as a context
    manager); ``stop()`` leaves no process of the run behind."""

    def __init__(self, workdir=None, api_workers=2, keystone_venv=None,
                 glance_venv=None, tether_options='', log=None,
                 manila=True):
        self.tag = uuid.uuid4().hex[:8]
        self.own_workdir = workdir is None
        if workdir is None:
            workdir = tempfile.mkdtemp(prefix='tether-int-', dir='/tmp')
        self.dir = workdir
        os.makedirs(self.dir, exist_ok=True)
        # QEMU (libvirt-qemu), RabbitMQ and PostgreSQL run as other users.
        os.chmod(self.dir, 0o755)
        self.log_dir = os.path.join(self.dir, 'log')
        os.makedirs(self.log_dir, exist_ok=True)
        self.api_workers = api_workers
        self.keystone_venv = keystone_venv or os.environ.get(
            'TETHER_INTEGRATION_KEYSTONE_VENV', DEFAULT_KEYSTONE_VENV)
        self.tether_options = tether_options
        self.log = log or (lambda msg: print(msg, file=sys.stderr,
                                             flush=True))
        self.env = dict(os.environ, **{processes.RUN_VARIABLE: self.tag})
        # Not what the caller's environment says: the deployment's own.
        for key in list(self.env):
            if key.startswith('OS_'):
                del self.env[key]
        ports = processes.PortAllocator()
        self.rabbit = services.RabbitMQ(self.dir, ports, self.env, self.tag)
        self.db = services.PostgreSQL(self.dir, ports, self.env, self.tag)
        self.keystone = services.Keystone(self.dir, ports, self.env,
                                          self.tag, self.keystone_venv)
        self.libvirt = services.Libvirt(self.env)
        self.volume_port = ports()
        self.compute_port = ports()
        self.users = dict(USERS)
        self.passwords = {name: '%s-%s' % (name, self.tag) for name in USERS}
        self.passwords['admin'] = self.keystone.admin_password
        # Glance runs from the virtualenv of tether-aio's Glance
        # (tools/install-deps.sh makes it), unless
        # TETHER_INTEGRATION_GLANCE_VENV names another.
        self.glance = glance_child.Child(
            self.dir, port=ports(), auth='keystone',
            venv=glance_venv or os.environ.get(
                'TETHER_INTEGRATION_GLANCE_VENV'),
            keystone={'auth_url': self.keystone.url,
                      'password': self.passwords['glance'],
                      'region_name': REGION},
            database_url=self.db.url('glance'), env=self.env,
            log=lambda msg: self.log('integration: ' + msg))
        # Manila and Ceph, unless the caller needs no shares (the
        # benchmark).
        self.manila = int_manila.Manila(
            self.dir, self.tag, self.cloud('admin')['auth'], REGION,
            lambda msg: self.log('integration: ' + msg)) if manila else None
        self.project_ids = {}
        self.conf_path = os.path.join(self.dir, 'tether.conf')
        self.state_dir = os.path.join(self.dir, 'state')
        self.share_dir = os.path.join(self.dir, 'share')
        self.clouds_yaml = os.path.join(self.dir, 'clouds.yaml')
        self.host = 'int-' + self.tag
        self.volume_api = self.compute_api = None
        self.volume_manager = self.compute_manager = None
        self.timings = {}

    # Start ------------------------------------------------------------------

    def _step(self, name, fn, *args):
        t0 = time.monotonic()
        result = fn(*args)
        self.timings[name] = time.monotonic() - t0
        self.log('integration: %s (%.1fs)' % (name, self.timings[name]))
        return result

    def start(self):
        self.log('integration: deployment %s in %s' % (self.tag, self.dir))
        try:
            self._step('keystone virtualenv', services.Keystone.ensure_venv,
                       self.keystone_venv, self.log)
            self._step('libvirt', self.libvirt.start)
            self.rabbit.setup()
            self._step('rabbitmq', self.rabbit.start)
            self.rabbit.create_user()
            self.db.setup()
            self._step('postgresql', self.db.start)
            self.db.create_databases()
            # Glance's database migrations run while Keystone and tether
            # start; it serves once they are done.
            self._step('glance setup', self.glance.start)
            self._step('keystone setup', self.keystone.setup)
            self._step('keystone', self.keystone.start)
            self._step('keystone users and catalog', self._register)
            if self.manila is not None:
                # In a thread of its own, beside tether and Glance.
                self.manila.start()
            self._write_config()
            self._step('db sync', daemons.db_sync, self.conf_path, self.env)
            self._step('tether daemons', self._start_tether)
            self._step('glance', self.glance.wait)
            if self.manila is not None:
                self._step('manila (waited for)', self.manila.wait)
                self.timings.update(
                    ('manila ' + name, seconds)
                    for name, seconds in self.manila.timings.items())
        except BaseException:
            self.log('integration: start failed; the logs:\n'
                     + self.log_tails())
            try:
                self.stop(remove=False)
            except Exception as exc:  # noqa: BLE001 - the first error wins
                self.log('integration: and stopping failed: %s' % exc)
            raise
        self._write_clouds_yaml()
        return self

    def _register(self):
        """Projects, users, roles and the catalog, with openstacksdk as the
        bootstrap admin."""
        conn = self.connection('admin')
        identity = conn.identity
        roles = {r.name: r for r in identity.roles()}
        if 'service' not in roles:
            # Keystone's bootstrap makes admin, member and reader, and
            # since 2023.2 service too.
            roles['service'] = identity.create_role(name='service')
        projects = {}
        for project in sorted({p for p, _ in USERS.values()}):
            found = identity.find_project(project, domain_id='default')
            projects[project] = found or identity.create_project(
                name=project, domain_id='default')
            self.project_ids[project] = projects[project].id
        self.project_ids['admin'] = identity.find_project(
            'admin', domain_id='default').id
        for name, (project, role_names) in USERS.items():
            self._create_user(identity, name, projects[project],
                              [roles[r] for r in role_names])
        volume_url = 'http://127.0.0.1:%d/v3/%%(project_id)s' % (
            self.volume_port)
        compute_url = 'http://127.0.0.1:%d/v2.1' % self.compute_port
        for name, service_type, url in (
                ('tether-volume', 'block-storage', volume_url),
                ('tether-volumev3', 'volumev3', volume_url),
                ('tether-compute', 'compute', compute_url),
                ('glance', 'image', self.glance.url)):
            service = identity.create_service(
                name=name, type=service_type,
                description='tether integration (%s)' % self.tag)
            for interface in ('public', 'internal', 'admin'):
                identity.create_endpoint(
                    service_id=service.id, interface=interface, url=url,
                    region_id=REGION)
        conn.close()

    def _create_user(self, identity, name, project, roles):
        user = identity.create_user(
            name=name, password=self.passwords[name], domain_id='default',
            default_project_id=project.id)
        for role in roles:
            identity.assign_project_role_to_user(project, user, role)

    def add_project(self, name, role='member'):
        """A new project ``name`` with a user ``name`` of ``role`` in it
        (a cloud of clouds.yaml too); its ID."""
        conn = self.connection('admin')
        identity = conn.identity
        project = identity.create_project(name=name, domain_id='default')
        self.project_ids[name] = project.id
        self.users[name] = (name, [role])
        self.passwords[name] = '%s-%s' % (name, self.tag)
        self._create_user(identity, name, project,
                          [identity.find_role(role)])
        conn.close()
        self._write_clouds_yaml()
        return project.id

    def _write_config(self):
        os.makedirs(self.state_dir, exist_ok=True)
        os.makedirs(self.share_dir, exist_ok=True)
        for path in (self.state_dir, self.share_dir):
            os.chmod(path, 0o755)
        shares = self.manila is not None
        with open(self.conf_path, 'w') as f:
            f.write(daemons.tether_conf(
                sections=int_manila.SHARE_CONF if shares else '',
                file_backed_memory=(int_manila.FILE_BACKED_MEMORY
                                    if shares else 0),
                host=self.host, state=self.state_dir,
                transport_url=self.rabbit.url, backend=daemons.BACKEND,
                share=self.share_dir, extra=self.tether_options,
                volume_db=self.db.url('tether_volume'),
                compute_db=self.db.url('tether_compute'),
                keystone=self.keystone.url.rsplit('/v3', 1)[0] + '/',
                service_user='tether',
                service_password=self.passwords['tether']))

    def _start_tether(self):
        self.volume_manager = daemons.Manager(
            'tether-volume', self.conf_path, self.log_dir, self.env).start()
        self.compute_manager = daemons.Manager(
            'tether-compute', self.conf_path, self.log_dir, self.env).start()
        self.volume_api = daemons.API(
            'tether-volume-api', self.volume_port, self.api_workers,
            self.conf_path, self.log_dir, self.env).start()
        self.compute_api = daemons.API(
            'tether-compute-api', self.compute_port, self.api_workers,
            self.conf_path, self.log_dir, self.env).start()
        self.wait_services_up()

    def wait_services_up(self, timeout=90):
        """Until the volume backend and the compute host report up."""
        conn = self.connection('admin')

        def up():
            volume = conn.block_storage.get(
                '/os-services?binary=tether-volume').json()['services']
            compute = conn.compute.get(
                '/os-services?binary=tether-compute').json()['services']
            return (any(s['state'] == 'up' and
                        s['host'] == '%s@%s' % (self.host, daemons.BACKEND)
                        for s in volume) and
                    any(s['state'] == 'up' and s['host'] == self.host
                        for s in compute))
        try:
            processes.wait_until(up, timeout, interval=0.5,
                                 what='tether-volume and tether-compute '
                                      'to report up')
        finally:
            conn.close()

    # Clients ----------------------------------------------------------------

    def cloud(self, user):
        """The clouds.yaml entry of ``user``."""
        project = 'admin' if user == 'admin' else self.users[user][0]
        return {
            'auth': {'auth_url': self.keystone.url, 'username': user,
                     'password': self.passwords[user],
                     'project_name': project,
                     'user_domain_name': 'Default',
                     'project_domain_name': 'Default'},
            'region_name': REGION,
            'identity_api_version': 3,
            'interface': 'public',
        }

    def connection(self, user, **kwargs):
        """An openstacksdk connection as ``user`` (a name of USERS, or
        admin)."""
        import openstack
        cloud = self.cloud(user)
        # gunicorn closes a kept-alive connection after 2 idle seconds: a
        # request sent on it as it closes meets a closed connection before
        # the server read it. Send such a request again.
        kwargs.setdefault('connect_retries', 3)
        return openstack.connect(
            auth_type='password', region_name=REGION,
            interface='public', **cloud['auth'], **kwargs)

    def _write_clouds_yaml(self):
        clouds = {'int-' + user: self.cloud(user)
                  for user in ['admin'] + list(self.users)}
        with open(self.clouds_yaml, 'w') as f:
            yaml.safe_dump({'clouds': clouds}, f, default_flow_style=False)

    def cli_env(self, user):
        """The environment of an ``openstack`` CLI acting as ``user``."""
        env = dict(self.env, OS_CLIENT_CONFIG_FILE=self.clouds_yaml,
                   OS_CLOUD='int-' + user)
        env.pop(processes.RUN_VARIABLE)
        return env

    # Faults -----------------------------------------------------------------

    def restart_volume_manager(self, kill=True):
        """End tether-volume (SIGKILL by default, as a crash) and start it
        again; it reconciles what it left half done before serving."""
        if kill:
            self.volume_manager.kill()
        else:
            self.volume_manager.stop()
        self.volume_manager.start()

    # Stop -------------------------------------------------------------------

    def instance_uuids(self):
        """Every server the compute database knows, deleted ones too."""
        if not self.db.started:
            return []
        out = self.db.psql('SELECT uuid FROM instances', 'tether_compute')
        return [line for line in out.split() if line]

    def remove_guests(self):
        """Delete every server of this deployment, and remove any guest of
        theirs that is left in libvirt (libvirtd may be shared)."""
        if self.compute_api is not None and \
                self.compute_api.process.running():
            try:
                conn = self.connection('admin')
                for server in conn.compute.servers(all_projects=True):
                    conn.compute.delete_server(server.id)
                    conn.compute.wait_for_delete(server, wait=60)
                conn.close()
            except Exception as exc:  # noqa: BLE001 - best effort
                self.log('integration: deleting servers: %s' % exc)
        left = []
        for uuid_ in self.instance_uuids():
            name = 'instance-' + uuid_
            if self.libvirt.domain_exists(name):
                left.append(name)
                self.libvirt.remove_domain(name)
        return left

    def stop(self, remove=True):
        """Stop everything that was started; with ``remove``, delete the
        scratch directory (if this made it). Raises RuntimeError if a
        process of the run, or a guest of its servers, was left behind
        (then stopped or removed here)."""
        problems = []
        try:
            guests = self.remove_guests()
        except Exception as exc:  # noqa: BLE001 - stop the rest anyway
            guests = []
            problems.append('removing guests failed: %s' % exc)
        if guests:
            problems.append('guests left after their servers were deleted: '
                            '%s' % guests)
        if self.manila is not None:
            # The guests are gone, and with them tether's use of Manila.
            self.manila.stop_soon()
        for part in (self.volume_api, self.compute_api, self.volume_manager,
                     self.compute_manager, self.manila, self.glance,
                     self.keystone, self.rabbit, self.db, self.libvirt):
            if part is None:
                continue
            try:
                part.stop()
            except Exception as exc:  # noqa: BLE001 - stop the others
                problems.append('stopping %s failed: %s'
                                % (type(part).__name__, exc))
        # A parent that outlives its child by a moment (tini, whose
        # libvirtd was stopped) is given that moment.
        try:
            processes.wait_until(
                lambda: not processes.leftovers(self.tag, self.dir), 15,
                what='the last processes to end')
        except TimeoutError:
            problems.append('processes still running: %s'
                            % processes.leftovers(self.tag, self.dir))
        if remove and self.own_workdir:
            shutil.rmtree(self.dir, ignore_errors=True)
        if problems:
            raise RuntimeError('; '.join(problems))

    def log_tails(self, chars=3000):
        """The end of every log: the tether daemons', then those of
        Glance, Keystone, RabbitMQ and PostgreSQL."""
        paths = [os.path.join(self.log_dir, name)
                 for name in sorted(os.listdir(self.log_dir))
                 if name.endswith('.log') and
                 not name.endswith('-access.log')]
        paths += [os.path.join(self.glance.state_dir, 'log', name)
                  for name in ('glance-api.log', 'gunicorn.log')]
        paths += [os.path.join(self.keystone.dir, 'log', 'keystone.log'),
                  os.path.join(self.keystone.dir, 'log', 'gunicorn.log'),
                  os.path.join(self.rabbit.dir, 'log', 'console.log'),
                  os.path.join(self.db.dir, 'postgresql.log')]
        if self.manila is not None:
            paths += self.manila.log_paths()
        out = []
        for path in paths:
            try:
                with open(path, errors='replace') as f:
                    out.append('==> %s <==\n%s' % (path, f.read()[-chars:]))
            except OSError:
                continue
        return '\n'.join(out)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--workdir', help='Scratch directory (default: a '
                        'new one under /tmp, removed at the end).')
    parser.add_argument('--api-workers', type=int, default=2)
    args = parser.parse_args(argv)
    dep = Deployment(args.workdir, api_workers=args.api_workers)
    dep.start()
    print('tether integration deployment ready:\n'
          '  export OS_CLIENT_CONFIG_FILE=%s\n'
          '  openstack --os-cloud int-member volume list\n'
          '  (clouds: %s)\n'
          '  logs: %s\nCtrl-C stops it.'
          % (dep.clouds_yaml,
             ', '.join('int-' + u for u in ['admin'] + list(dep.users)),
             dep.log_dir), flush=True)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    try:
        while not stop:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    dep.stop()


if __name__ == '__main__':
    main()
