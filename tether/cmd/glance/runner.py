"""Glance, the image service of tether-aio and of the integration
deployment, run as a child process.

Glance 33 from PyPI lives in a virtualenv of its own (``ensure_venv``, from
requirements.txt next to this file): none of its dependencies touches the
environment that imports this module, which needs the standard library
only (no tether import).

Everything Glance has is under one directory of its own, ``state_dir``
(tether-aio: ``<its state directory>/glance``; the integration
deployment: ``<its scratch directory>/glance``)::

    glance-api.conf  glance-api-paste.ini  gunicorn.conf.py
    schema-image.json
    glance.sqlite             the database (unless database_url names one)
    images/                   the file store
    staging/ tasks/           Glance's reserved stores
    lock/  log/glance-api.log  log/gunicorn.log  log/access.log

Glance 33 has no server of its own (the ``glance-api`` command refuses to
run): gunicorn serves ``glance.wsgi.api:application``, which reads
``$OS_GLANCE_CONFIG_DIR/glance-api.conf``.

Authentication, ``write_config(auth=...)``:

``noauth``
    the ``tether-noauth`` paste flavor: glance_noauth.py turns tether's
    ``X-Auth-Token: <user>:<project>`` into the headers Glance's
    ``context`` middleware trusts after keystonemiddleware, so images get
    the caller's project as owner, and user ``admin`` (role admin) sees
    and manages every project's images. Glance's default policies apply
    unchanged (no policy file).
``keystone``
    the ``keystone`` flavor: keystonemiddleware's auth_token, then
    ``context``; ``[keystone_authtoken]`` from the ``keystone`` argument
    (the integration deployment, with its database on PostgreSQL).

On SQLite, glance_sqlite.py (loaded by gunicorn's post_fork hook) makes
concurrent requests queue for the database instead of failing with
"database is locked".

Use, as tether-aio would::

    venv = ...; state = os.path.join(aio_state_dir, 'glance')
    ensure_venv(venv)
    write_config(state, port)
    db_sync(state, venv)
    process = start(state, venv)
    wait_ready(url(port), 60, process)
    ...
    stop(process)

``python3 -m tether.cmd.glance.runner --state-dir DIR --venv DIR --port N``
does all
of it, prints the timings and serves until interrupted.
"""

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from tether.cmd.glance import templates
from tether.cmd import venvs

HERE = os.path.dirname(os.path.abspath(__file__))
REQUIREMENTS = os.path.join(HERE, 'requirements.txt')
# The modules that run inside Glance's process (gunicorn's pythonpath).
PLUGINS = os.path.join(HERE, 'plugins')
# The paste flavor of noauth (glance_noauth.py) and its filter's module.
NOAUTH_FLAVOR = 'tether-noauth'
NOAUTH_MODULE = 'glance_noauth'
# Set in Glance's environment by start(die_with_parent=True): the pid of
# the process Glance must not outlive.
PARENT_VARIABLE = 'TETHER_GLANCE_PARENT_PID'


def url(port, host='127.0.0.1'):
    """The endpoint of Glance (clients find /v2 by version discovery)."""
    return 'http://%s:%d' % (host, port)


def _run(argv, timeout, env=None, cwd=None):
    proc = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError('%s exited %d:\n%s' % (
            ' '.join(argv), proc.returncode, proc.stdout[-4000:]))
    return proc.stdout


# -- the virtualenv ---------------------------------------------------------

def ensure_venv(venv_dir, python=None, log=print, timeout=1200):
    """Create ``venv_dir`` with Glance and gunicorn (requirements.txt)
    unless it holds them as requirements.txt lists them now (see
    tether.cmd.venvs.ensure); the seconds the installation took."""
    return venvs.ensure(venv_dir, REQUIREMENTS, 'glance', python=python,
                        log=log, timeout=timeout)


# -- configuration ----------------------------------------------------------

def write_config(state_dir, port, auth='noauth', database_url=None,
                 keystone=None, host='127.0.0.1', workers=1, threads=8,
                 debug=False, show_direct_url=False):
    """Write Glance's configuration under ``state_dir`` (and make its
    directories); return the path of glance-api.conf.

    ``auth`` is ``noauth`` (tether's ``<user>:<project>`` tokens) or
    ``keystone``; then ``keystone`` is a dict with ``auth_url`` (Keystone's
    ``.../v3``), ``password`` and optionally ``username`` (glance),
    ``project_name`` (service), ``user_domain_name`` and
    ``project_domain_name`` (Default), ``region_name``,
    ``www_authenticate_uri`` (the auth_url) and ``memcached_servers``.
    ``database_url`` is an SQLAlchemy URL (default: SQLite in
    ``state_dir``). ``show_direct_url``: images show the file of their
    data in the store (``direct_url``), ``state_dir/images/<id>``.
    """
    if auth not in ('noauth', 'keystone'):
        raise ValueError('auth is noauth or keystone, not %r' % (auth,))
    if auth == 'keystone' and not (keystone and keystone.get('auth_url')
                                   and keystone.get('password')):
        raise ValueError('auth = keystone needs keystone={auth_url, '
                         'password, ...}')
    state_dir = os.path.abspath(state_dir)
    for sub in ('', 'images', 'staging', 'tasks', 'lock', 'log'):
        os.makedirs(os.path.join(state_dir, sub), exist_ok=True)
    database_url = database_url or 'sqlite:///%s' % os.path.join(
        state_dir, 'glance.sqlite')
    conf = templates.GLANCE_API_CONF.format(
        dir=state_dir, database_url=database_url, debug=debug,
        show_direct_url=show_direct_url,
        flavor=NOAUTH_FLAVOR if auth == 'noauth' else 'keystone')
    if auth == 'keystone':
        ks = dict(templates.KEYSTONE_DEFAULTS, **keystone)
        ks.setdefault('www_authenticate_uri', ks['auth_url'])
        conf += templates.KEYSTONE_AUTHTOKEN.format(**ks)
        if ks.get('memcached_servers'):
            conf += 'memcached_servers = %s\n' % ks['memcached_servers']
        if ks.get('region_name'):
            conf += 'region_name = %s\n' % ks['region_name']
    _write(os.path.join(state_dir, 'glance-api.conf'), conf)
    _write(os.path.join(state_dir, 'glance-api-paste.ini'),
           templates.PASTE_INI.format(dir=state_dir, noauth=NOAUTH_FLAVOR,
                                      module=NOAUTH_MODULE))
    # Glance looks for custom image properties next to its configuration
    # and warns at every start if there is no such file: none, said out
    # loud.
    _write(os.path.join(state_dir, 'schema-image.json'), '{}\n')
    _write(os.path.join(state_dir, 'gunicorn.conf.py'),
           templates.GUNICORN_CONF.format(
               host=host, port=port, workers=workers, threads=threads,
               pythonpath=PLUGINS, dir=state_dir, parent=PARENT_VARIABLE,
               sqlite=database_url.startswith('sqlite')))
    return os.path.join(state_dir, 'glance-api.conf')


def _write(path, text):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


# -- the database -----------------------------------------------------------

def db_sync(state_dir, venv_dir, timeout=300, env=None):
    """Create or upgrade Glance's database (``glance-manage db_sync``);
    ``env`` as start()'s."""
    state_dir = os.path.abspath(state_dir)
    venv_dir = os.path.abspath(venv_dir)
    return _run([os.path.join(venv_dir, 'bin', 'glance-manage'),
                 '--config-file', os.path.join(state_dir, 'glance-api.conf'),
                 'db_sync'], timeout=timeout, env=_env(state_dir, env),
                cwd=state_dir)


def _env(state_dir, env=None):
    env = dict(os.environ if env is None else env)
    env['OS_GLANCE_CONFIG_DIR'] = state_dir
    # A PYTHONPATH meant for the caller's interpreter is not Glance's.
    env.pop('PYTHONPATH', None)
    env.pop('PYTHONHOME', None)
    return env


# -- the process ------------------------------------------------------------

def start(state_dir, venv_dir, log_path=None, env=None,
          die_with_parent=True):
    """Start gunicorn serving Glance; return its ``subprocess.Popen``.

    gunicorn runs in a session of its own (stop() signals its group) and
    logs to ``log_path`` (default ``state_dir/log/gunicorn.log``); Glance
    itself logs to ``state_dir/log/glance-api.log``. With
    ``die_with_parent``, gunicorn gets SIGTERM when the thread that called
    start() ends (Linux's parent-death signal): call it from the main
    thread, or one that lives as long as Glance should.
    """
    state_dir = os.path.abspath(state_dir)
    venv_dir = os.path.abspath(venv_dir)
    env = _env(state_dir, env)
    if die_with_parent:
        env[PARENT_VARIABLE] = str(os.getpid())
    log_path = log_path or os.path.join(state_dir, 'log', 'gunicorn.log')
    with open(log_path, 'ab') as log:
        return subprocess.Popen(
            [os.path.join(venv_dir, 'bin', 'gunicorn'), '--config',
             os.path.join(state_dir, 'gunicorn.conf.py')],
            env=env, cwd=state_dir, stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)


def wait_ready(endpoint, timeout=60, process=None, interval=0.1):
    """Wait until Glance at ``endpoint`` serves; return the seconds it
    took. Raises RuntimeError if ``process`` ends first, TimeoutError
    after ``timeout`` seconds.

    /healthcheck answers once gunicorn's worker has loaded the whole
    application (the stores, the database, the paste pipeline).
    """
    began = time.monotonic()
    probe = endpoint.rstrip('/') + '/healthcheck'
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError('Glance exited %s before it served'
                               % process.returncode)
        try:
            with urllib.request.urlopen(probe, timeout=5) as resp:
                if resp.status == 200:
                    return time.monotonic() - began
        except urllib.error.HTTPError:
            pass
        except OSError:
            pass
        if time.monotonic() - began > timeout:
            raise TimeoutError('Glance did not serve %s within %ss'
                               % (probe, timeout))
        time.sleep(interval)


def _group(pgid):
    """The live processes of process group ``pgid`` (zombies have
    ended)."""
    members = []
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % name) as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(')') + 2:].split()
        if int(fields[2]) == pgid and fields[0] not in ('Z', 'X'):
            members.append(int(name))
    return members


def stop(process, timeout=30):
    """SIGTERM gunicorn's group, wait; SIGKILL whatever is left."""
    if process is None:
        return
    pgid = process.pid
    for signum in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, signum)
        except ProcessLookupError:
            pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None and not _group(pgid):
                return
            time.sleep(0.05)
    raise TimeoutError('Glance (process group %d) did not end' % pgid)


def rss_kib(process):
    """Resident memory of gunicorn and its workers, in KiB."""
    total = 0
    for pid in _group(process.pid):
        try:
            with open('/proc/%d/status' % pid) as f:
                for line in f:
                    if line.startswith('VmRSS:'):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


# -- the command ------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(
        description='Install, configure and run Glance (noauth, SQLite, '
                    'file store) until interrupted.')
    parser.add_argument('--state-dir', required=True)
    parser.add_argument('--venv', required=True)
    parser.add_argument('--port', type=int, default=19292)
    parser.add_argument('--debug', action='store_true')
    args = parser.parse_args(argv)
    installed = ensure_venv(args.venv)
    write_config(args.state_dir, args.port, debug=args.debug)
    began = time.monotonic()
    db_sync(args.state_dir, args.venv)
    synced = time.monotonic() - began
    began = time.monotonic()
    process = start(args.state_dir, args.venv)
    try:
        wait_ready(url(args.port), 120, process)
        ready = time.monotonic() - began
        print('glance ready: %s (venv %.1fs, db_sync %.1fs, start %.1fs, '
              'rss %d MiB)' % (url(args.port), installed, synced, ready,
                               rss_kib(process) // 1024), flush=True)
        stopping = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stopping.set())
        while not stopping.wait(1):
            pass
    finally:
        stop(process)
    return 0


if __name__ == '__main__':
    sys.exit(main())
