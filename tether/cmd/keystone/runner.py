"""Keystone, the identity service of ``tether-aio --keystone`` and of the
integration deployment, run as a child process.

Keystone 30 from PyPI lives in a virtualenv of its own
(:func:`ensure_venv`, from a requirements file: requirements.txt beside
this module for tether-aio, SQLite; tools/integration's for PostgreSQL),
under gunicorn, with fernet tokens. Everything it has is under one
directory, ``state_dir``::

    keystone.conf  gunicorn.conf.py   keystone.sqlite (unless database_url)
    fernet-keys/  credential-keys/    log/keystone.log  log/gunicorn.log

Keystone parses ``sys.argv``: gunicorn gets no argument and reads
``gunicorn.conf.py`` from its working directory, ``state_dir``. This
module needs the standard library only (and tether.cmd.venvs).

Use::

    ensure_venv(venv)
    write_config(state, port)
    setup(state, venv, admin_password, port)   # db_sync, keys, bootstrap
    process = start(state, venv)
    wait_ready(url(port), 60, process)
    ...
    stop(process)
"""

import grp
import os
import pwd
import subprocess
import time
import urllib.error
import urllib.request

from tether.cmd.glance import runner as glance_runner
from tether.cmd import venvs

HERE = os.path.dirname(os.path.abspath(__file__))
REQUIREMENTS = os.path.join(HERE, 'requirements.txt')
REGION = 'RegionOne'
# Set in Keystone's environment by start(die_with_parent=True).
PARENT_VARIABLE = 'TETHER_KEYSTONE_PARENT_PID'

KEYSTONE_CONF = """\
[DEFAULT]
log_file = {dir}/log/keystone.log
[database]
connection = {connection}
[token]
provider = fernet
[fernet_tokens]
key_repository = {dir}/fernet-keys/
[credential]
key_repository = {dir}/credential-keys/
{extra}"""

GUNICORN_CONF = """\
import ctypes
import os
import signal

wsgi_app = 'keystone.wsgi.api:application'
bind = '{host}:{port}'
workers = {workers}
threads = {threads}
worker_class = 'gthread'
keepalive = 75
pidfile = '{dir}/gunicorn.pid'
accesslog = '{dir}/log/access.log'
raw_env = ['OS_KEYSTONE_CONFIG_DIR={dir}']
control_socket_disable = True

# Die with the process that started this one (runner.start).
_parent = os.environ.get('{parent}')
if _parent:
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG,
                                            signal.SIGTERM)
    if os.getppid() != int(_parent):
        raise SystemExit('keystone: the process that started it has ended')
"""


def url(port, host='127.0.0.1'):
    """Keystone's identity v3 endpoint."""
    return 'http://%s:%d/v3' % (host, port)


def ensure_venv(venv_dir, requirements=REQUIREMENTS, log=print,
                timeout=1200):
    """Create ``venv_dir`` with Keystone and gunicorn unless it holds
    ``requirements`` as they are now (tether.cmd.venvs.ensure); the
    seconds the installation took."""
    return venvs.ensure(venv_dir, requirements, 'keystone', log=log,
                        timeout=timeout)


def write_config(state_dir, port, database_url=None, host='127.0.0.1',
                 workers=1, threads=4, password_hash_rounds=None):
    """Write keystone.conf and gunicorn.conf.py under ``state_dir`` (and
    make its directories); ``database_url``: an SQLAlchemy URL (default
    SQLite in ``state_dir``); ``password_hash_rounds``: bcrypt's cost
    (Keystone's default, 12, when None)."""
    state_dir = os.path.abspath(state_dir)
    os.makedirs(os.path.join(state_dir, 'log'), exist_ok=True)
    connection = database_url or 'sqlite:///%s' % os.path.join(
        state_dir, 'keystone.sqlite')
    _write(os.path.join(state_dir, 'keystone.conf'),
           KEYSTONE_CONF.format(
               dir=state_dir, connection=connection,
               extra='' if password_hash_rounds is None else
               '[identity]\npassword_hash_rounds = %d\n'
               % password_hash_rounds))
    _write(os.path.join(state_dir, 'gunicorn.conf.py'),
           GUNICORN_CONF.format(dir=state_dir, host=host, port=port,
                                workers=workers, threads=threads,
                                parent=PARENT_VARIABLE))


def _write(path, text):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


def env_of(state_dir, env=None):
    """Keystone's environment: ``env`` (default this process's) with its
    configuration directory, without this interpreter's PYTHONPATH."""
    env = dict(os.environ if env is None else env)
    env['OS_KEYSTONE_CONFIG_DIR'] = os.path.abspath(state_dir)
    env.pop('PYTHONPATH', None)
    env.pop('PYTHONHOME', None)
    return env


def manage(state_dir, venv_dir, *args, env=None, timeout=300):
    """``keystone-manage ARGS`` on the configuration of ``state_dir``."""
    state_dir = os.path.abspath(state_dir)
    return glance_runner._run(
        [os.path.join(venv_dir, 'bin', 'keystone-manage'), '--config-file',
         os.path.join(state_dir, 'keystone.conf')] + list(args),
        timeout=timeout, env=env_of(state_dir, env), cwd=state_dir)


def setup(state_dir, venv_dir, admin_password, port, region=REGION,
          env=None):
    """Create (or upgrade) the database, the fernet and credential keys
    (unless there), and bootstrap: the admin user, project and role, the
    member and reader roles, the region and Keystone's own endpoints.
    Each step may be run again."""
    me = pwd.getpwuid(os.getuid()).pw_name
    group = grp.getgrgid(os.getgid()).gr_name
    manage(state_dir, venv_dir, 'db_sync', env=env)
    for what in ('fernet_setup', 'credential_setup'):
        manage(state_dir, venv_dir, what, '--keystone-user', me,
               '--keystone-group', group, env=env)
    endpoint = url(port)
    manage(state_dir, venv_dir, 'bootstrap', '--bootstrap-password',
           admin_password, '--bootstrap-admin-url', endpoint,
           '--bootstrap-internal-url', endpoint,
           '--bootstrap-public-url', endpoint,
           '--bootstrap-region-id', region, env=env)


def start(state_dir, venv_dir, env=None, die_with_parent=True):
    """Start gunicorn serving Keystone; its ``subprocess.Popen``, in a
    session of its own (stop() signals its group). With
    ``die_with_parent`` it gets SIGTERM when the thread that called this
    ends."""
    state_dir = os.path.abspath(state_dir)
    env = env_of(state_dir, env)
    if die_with_parent:
        env[PARENT_VARIABLE] = str(os.getpid())
    with open(os.path.join(state_dir, 'log', 'gunicorn.log'), 'ab') as log:
        return subprocess.Popen(
            [os.path.join(venv_dir, 'bin', 'gunicorn')], env=env,
            cwd=state_dir, stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)


def wait_ready(endpoint, timeout=60, process=None, interval=0.1):
    """Wait until Keystone answers ``endpoint`` (its /v3) with 200; the
    seconds it took. RuntimeError if ``process`` ends first."""
    began = time.monotonic()
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError('Keystone exited %s before it served'
                               % process.returncode)
        try:
            with urllib.request.urlopen(endpoint, timeout=5) as resp:
                if resp.status == 200:
                    return time.monotonic() - began
        except (urllib.error.HTTPError, OSError):
            pass
        if time.monotonic() - began > timeout:
            raise TimeoutError('Keystone did not serve %s within %ss'
                               % (endpoint, timeout))
        time.sleep(interval)


def stop(process, timeout=30):
    """SIGTERM gunicorn's group, wait; SIGKILL whatever is left."""
    glance_runner.stop(process, timeout)
