#!/usr/bin/env python3
"""A tether deployment on one machine, as an operator runs it.

RabbitMQ, PostgreSQL (tether's two databases, Glance's and Keystone's),
Keystone (from PyPI, in a virtualenv of its own, under gunicorn), Glance (the
image service, started as tether-aio starts it, tether/cmd/glance/, but
with Keystone's auth_token and its database on PostgreSQL) and libvirt,
then every tether daemon as a process of its own: tether-volume-api and
tether-compute-api under gunicorn (``api_workers`` workers each),
tether-volume, tether-backup (its backups in ``backup/`` of the state
directory) and tether-compute, all with ``auth_strategy = keystone``
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

It prints the clouds.yaml to use with the ``openstack`` CLI. What Keystone
holds, and how clients log in: identity.py.
"""

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time
import uuid

from tether.cmd.glance import child as glance_child

# tools/, so that this runs as a script too.
TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

from integration import daemons  # noqa: E402
from integration import identity  # noqa: E402
from integration import manila as int_manila  # noqa: E402
from integration import processes  # noqa: E402
from integration import services  # noqa: E402

REPO = services.REPO
DEFAULT_KEYSTONE_VENV = os.path.join(REPO, '.tox', 'integration-keystone')


class Deployment(identity.IdentityMixin):
    """Start with ``start()``, stop with ``stop()`` (or as a context
    manager); ``stop()`` leaves no process of the run behind."""

    def __init__(self, workdir=None, api_workers=2, keystone_venv=None,
                 glance_venv=None, tether_options='', log=None,
                 manila=True, response_validation='error'):
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
        # [api] response_validation: error for the tests (every answer
        # checked), ignore (the default) for a benchmark.
        self.response_validation = response_validation
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
                                          self.tag, self.keystone_venv,
                                          self.db.url('keystone'))
        self.libvirt = services.Libvirt(self.env)
        self.volume_port = ports()
        self.compute_port = ports()
        self.users = dict(identity.USERS)
        self.passwords = {name: '%s-%s' % (name, self.tag)
                          for name in identity.USERS}
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
                      'region_name': identity.REGION},
            database_url=self.db.url('glance'), env=self.env,
            log=lambda msg: self.log('integration: ' + msg))
        # Manila and Ceph, unless the caller needs no shares (the
        # benchmark).
        self.manila = int_manila.Manila(
            self.dir, self.tag, self.cloud('admin')['auth'], identity.REGION,
            lambda msg: self.log('integration: ' + msg)) if manila else None
        self.project_ids = {}
        self.conf_path = os.path.join(self.dir, 'tether.conf')
        self.state_dir = os.path.join(self.dir, 'state')
        self.share_dir = os.path.join(self.dir, 'share')
        self.clouds_yaml = os.path.join(self.dir, 'clouds.yaml')
        self.host = 'int-' + self.tag
        self.volume_api = self.compute_api = None
        self.volume_manager = self.compute_manager = None
        self.backup_manager = None
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
                response_validation=self.response_validation,
                volume_db=self.db.url('tether_volume'),
                compute_db=self.db.url('tether_compute'),
                keystone=self.keystone.url.rsplit('/v3', 1)[0] + '/',
                service_user='tether',
                service_password=self.passwords['tether']))

    def _start_tether(self):
        self.volume_manager = daemons.Manager(
            'tether-volume', self.conf_path, self.log_dir, self.env).start()
        self.backup_manager = daemons.Manager(
            'tether-backup', self.conf_path, self.log_dir, self.env).start()
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
        """Until the volume backend, the backup service and the compute
        host report up."""
        conn = self.connection('admin')

        def up():
            volume = conn.block_storage.get(
                '/os-services?binary=tether-volume').json()['services']
            backup = conn.block_storage.get(
                '/os-services?binary=tether-backup').json()['services']
            compute = conn.compute.get(
                '/os-services?binary=tether-compute').json()['services']
            return (any(s['state'] == 'up' and
                        s['host'] == '%s@%s' % (self.host, daemons.BACKEND)
                        for s in volume) and
                    any(s['state'] == 'up' and s['host'] == self.host
                        for s in backup) and
                    any(s['state'] == 'up' and s['host'] == self.host
                        for s in compute))
        try:
            processes.wait_until(up, timeout, interval=0.5,
                                 what='tether-volume, tether-backup and '
                                      'tether-compute to report up')
        finally:
            conn.close()

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
                     self.backup_manager, self.compute_manager, self.manila,
                     self.glance, self.keystone, self.rabbit, self.db,
                     self.libvirt):
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
