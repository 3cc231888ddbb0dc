"""tether-aio --keystone: a real Keystone beside the aio (from PyPI, in a
virtualenv of its own, under gunicorn, on SQLite under
``<state dir>/keystone``), bootstrapped with the users of clouds.yaml and
a catalog of every service the aio serves; tether's APIs and Glance then
run Keystone's auth_token instead of noauth.

Keystone holds:

======== ======== =============================================
user     project  roles
======== ======== =============================================
admin    admin    admin (keystone-manage bootstrap)
demo     demo     member (implies reader)
alt      alt      member
tether   service  admin, service (tether's services call each
                  other and Glance as it)
glance   service  service (Glance's auth_token)
======== ======== =============================================

and the catalog: ``block-storage`` and ``volumev3`` (the volume API with
the project in its URL), ``compute``, ``image`` (Glance) and, with
``--share-url``, ``sharev2``, in RegionOne. The passwords are made once,
kept in ``<state dir>/keystone/aio.json`` (mode 0600) with Keystone's URL,
which the API workers read, and written into clouds.yaml.
"""

import json
import os
import secrets
import threading

from oslo_config import cfg
from oslo_log import log as logging
import platformdirs

from tether.cmd.glance import child as glance_child
from tether.cmd.keystone import register
from tether.cmd.keystone import runner
from tether.cmd import venvs

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

REGION = runner.REGION
SERVICE_USER = 'tether'
# user: (project, roles); admin is keystone-manage bootstrap's.
USERS = {
    'demo': ('demo', ['member']),
    'alt': ('alt', ['member']),
    SERVICE_USER: ('service', ['admin', 'service']),
    'glance': ('service', ['service']),
}
SETTINGS = 'aio.json'
# The option groups through which tether's services reach each other and
# Glance (tether.clients), and Keystone's auth_token's.
PEER_GROUPS = ('volume', 'compute', 'image', 'share')


def default_venv():
    """Beside Glance's virtualenv, whatever --state-dir a run uses."""
    if os.geteuid() == 0:
        return '/var/lib/tether-aio/keystone-venv'
    return os.path.join(platformdirs.user_data_dir('tether'),
                        'keystone-venv')


def _settings_path(state_dir):
    return os.path.join(state_dir, 'keystone', SETTINGS)


def load_settings(state_dir):
    """{'url', 'passwords'} of the aio's Keystone (written by
    Identity)."""
    with open(_settings_path(state_dir)) as f:
        return json.load(f)


class Identity:
    """The aio's Keystone: :meth:`start` (venv, configuration, database,
    bootstrap and gunicorn, in a thread), :meth:`wait`, :meth:`register`
    the catalog, :meth:`stop`."""

    def __init__(self, state_dir, venv=None, port=0):
        self.dir = os.path.join(state_dir, 'keystone')
        os.makedirs(self.dir, mode=0o700, exist_ok=True)
        self.venv = venv or default_venv()
        try:
            settings = load_settings(state_dir)
        except (OSError, ValueError):
            settings = {}
        passwords = settings.get('passwords') or {
            name: secrets.token_urlsafe(12)
            for name in ['admin'] + list(USERS)}
        self.passwords = passwords
        self.port = port or glance_child.free_port()
        self.url = runner.url(self.port)
        fd = os.open(_settings_path(state_dir) + '.tmp',
                     os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, 'w') as f:
            json.dump({'url': self.url, 'passwords': passwords}, f)
        os.replace(_settings_path(state_dir) + '.tmp',
                   _settings_path(state_dir))
        self.process = None
        self._thread = None
        self._error = None

    def start(self):
        self._thread = threading.Thread(target=self._prepare,
                                        name='keystone', daemon=True)
        self._thread.start()

    def _prepare(self):
        try:
            runner.ensure_venv(self.venv, log=LOG.info)
            runner.write_config(self.dir, self.port)
            # Each keystone-manage command takes seconds (Keystone's
            # imports): a start on a state directory set up for this
            # Keystone and this URL skips them all.
            stamp = os.path.join(self.dir, 'setup.done')
            done = '%s %s\n' % (venvs.digest(runner.REQUIREMENTS), self.url)
            try:
                with open(stamp) as f:
                    if f.read() == done:
                        return
            except OSError:
                pass
            runner.setup(self.dir, self.venv, self.passwords['admin'],
                         self.port)
            with open(stamp, 'w') as f:
                f.write(done)
        except Exception as exc:  # noqa: BLE001 - reported by wait()
            self._error = exc

    def wait(self, timeout=600):
        """Start Keystone once it is set up (from the caller's thread: it
        dies with it); wait until it serves."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError('Keystone was not set up within %ss'
                               % timeout)
        if self._error is not None:
            raise RuntimeError('Keystone could not be set up: %s'
                               % self._error)
        if self.process is None:
            self.process = runner.start(self.dir, self.venv)
        took = runner.wait_ready(self.url, 120, self.process)
        LOG.info('Keystone serves at %s (logs in %s)', self.url,
                 os.path.join(self.dir, 'log'))
        return took

    def admin_cloud(self):
        return {'auth_type': 'password',
                'auth': {'auth_url': self.url, 'username': 'admin',
                         'password': self.passwords['admin'],
                         'project_name': 'admin',
                         'user_domain_name': 'Default',
                         'project_domain_name': 'Default'},
                'region_name': REGION, 'interface': 'public',
                'identity_api_version': '3'}

    def register(self, served):
        """The users and the catalog of ``served`` ({service type: URL},
        aio_clouds.endpoints)."""
        import openstack
        volume = served['block-storage'] + '/%(project_id)s'
        catalog = [('tether-volume', 'block-storage', volume),
                   ('tether-volumev3', 'volumev3', volume),
                   ('tether-compute', 'compute', served['compute']),
                   ('glance', 'image', served['image'])]
        if 'shared-file-system' in served:
            catalog.append(('manila', 'sharev2',
                            served['shared-file-system']))
        # A start with the same catalog (the same ports) as the last one
        # registered skips it.
        stamp = os.path.join(self.dir, 'register.done')
        done = json.dumps([self.url, catalog, sorted(USERS)])
        try:
            with open(stamp) as f:
                if f.read() == done:
                    return
        except OSError:
            pass
        conn = openstack.connection.Connection(**self.admin_cloud())
        try:
            register.register(
                conn, {name: (project, roles, self.passwords[name])
                       for name, (project, roles) in USERS.items()},
                catalog, REGION, description='tether-aio')
        finally:
            conn.close()
        with open(stamp, 'w') as f:
            f.write(done)

    def glance_keystone(self):
        """Glance's [keystone_authtoken] (glance.runner.write_config)."""
        return {'auth_url': self.url, 'password': self.passwords['glance'],
                'region_name': REGION}

    def clouds(self):
        """The ``keystone`` argument of aio_clouds.clouds_yaml."""
        return {'url': self.url, 'passwords': self.passwords}

    def stop(self):
        if self.process is not None:
            runner.stop(self.process)
            self.process = None


def configure(state_dir):
    """tether's APIs behind Keystone's auth_token, and its services
    calling each other and Glance as the user tether (the main process
    and each API worker run this)."""
    # Registers [keystone_authtoken] (it is imported where the keystone
    # pipeline is loaded anyway).
    from keystonemiddleware import auth_token  # noqa: F401
    from keystoneauth1 import loading as ks_loading

    settings = load_settings(state_dir)
    credentials = {
        'auth_type': 'password', 'auth_url': settings['url'],
        'username': SERVICE_USER,
        'password': settings['passwords'][SERVICE_USER],
        'project_name': 'service', 'user_domain_name': 'Default',
        'project_domain_name': 'Default'}
    plugin_opts = [o._to_oslo_opt() for o in
                   ks_loading.get_plugin_loader('password').get_options()]
    CONF.set_override('auth_strategy', 'keystone')
    for group in ('keystone_authtoken',) + PEER_GROUPS:
        CONF.register_opts(plugin_opts, group=group)
        for key, value in credentials.items():
            CONF.set_override(key, value, group=group)
    CONF.set_override('www_authenticate_uri', settings['url'],
                      group='keystone_authtoken')
    CONF.set_override('service_token_roles_required', True,
                      group='keystone_authtoken')
    for group in PEER_GROUPS:
        CONF.set_override('os_region_name', REGION, group=group)


def main(argv=None):
    """``python -m tether.cmd.aio_keystone [VENV]``: make Keystone's
    virtualenv (tools/install-deps.sh runs it for the tests)."""
    import sys
    args = sys.argv[1:] if argv is None else argv
    runner.ensure_venv(args[0] if args else default_venv())
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
