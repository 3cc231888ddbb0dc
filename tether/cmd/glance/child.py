"""Glance as a child process: its own virtualenv, its state under
``<state dir>/glance`` and the file store there.

tether-aio (and the functional tests' aio) runs it with noauth (tether's
tokens) and SQLite; the integration deployment (tools/integration/) with
Keystone and PostgreSQL."""

import os
import socket
import sys
import threading

from oslo_log import log as logging
import platformdirs

from tether.cmd.glance import runner

LOG = logging.getLogger(__name__)


def default_venv():
    """Where Glance's virtualenv is kept unless ``--glance-venv`` says:
    beside tether-aio's default state directory, whatever ``--state-dir``
    a run uses (``tools/install-deps.sh`` makes it there)."""
    if os.geteuid() == 0:
        return '/var/lib/tether-aio/glance-venv'
    return os.path.join(platformdirs.user_data_dir('tether'), 'glance-venv')


def free_port():
    """A port nothing listens on now (the OS's choice, released)."""
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


class Child:
    """One Glance: :meth:`start` installs (once), configures and starts
    it in a thread, :meth:`wait` until it serves, :meth:`stop`.

    By default, tether-aio's: noauth and SQLite. ``auth``, ``keystone``
    and ``database_url`` are those of :func:`runner.write_config`
    (``auth='keystone'`` with ``keystone={auth_url, password, ...}``, an
    SQLAlchemy URL of another database); ``env`` is Glance's environment
    (default: this process's), ``log`` a function that reports progress.
    ``show_direct_url``: images show the file of their data in
    :attr:`store_dir` (``direct_url``).
    """

    def __init__(self, state_dir, venv=None, port=0, auth='noauth',
                 keystone=None, database_url=None, env=None, log=None,
                 show_direct_url=False):
        self.state_dir = os.path.join(os.path.abspath(state_dir), 'glance')
        self.store_dir = os.path.join(self.state_dir, 'images')
        self.show_direct_url = show_direct_url
        self.venv = venv or default_venv()
        self.port = port or free_port()
        self.url = runner.url(self.port)
        self.auth = auth
        self.keystone = keystone
        self.database_url = database_url
        self.env = env
        self.log = log or LOG.info
        self.process = None
        self._ready = None
        self._error = None
        self._thread = None

    def start(self):
        """Configure and start Glance; the slow parts (installing its
        virtualenv the first time, its database migrations) run while the
        caller starts the rest."""
        os.makedirs(self.state_dir, exist_ok=True)
        runner.write_config(self.state_dir, self.port, auth=self.auth,
                            keystone=self.keystone,
                            database_url=self.database_url,
                            show_direct_url=self.show_direct_url)
        runner.ensure_venv(self.venv, log=self.log)
        self._thread = threading.Thread(target=self._sync, name='glance',
                                        daemon=True)
        self._thread.start()

    def _sync(self):
        try:
            runner.db_sync(self.state_dir, self.venv, env=self.env)
        except Exception as exc:  # noqa: BLE001 - reported by wait()
            self._error = exc

    def wait(self, timeout=120):
        """Start Glance once its database is ready; wait until it
        serves. Returns the seconds waited for it to serve."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError('Glance database migrations did not end '
                               'within %ss' % timeout)
        if self._error is not None:
            raise RuntimeError('Glance database migrations failed: %s'
                               % self._error)
        if self.process is None:
            # Popen from the calling thread: Glance dies with the thread
            # that started it (its parent-death signal).
            self.process = runner.start(self.state_dir, self.venv,
                                        env=self.env)
        took = runner.wait_ready(self.url, timeout, self.process)
        self.log('Glance serves at %s (logs in %s)'
                 % (self.url, os.path.join(self.state_dir, 'log')))
        return took

    def stop(self):
        if self.process is not None:
            runner.stop(self.process)
            self.process = None


def main(argv=None):
    """``python -m tether.cmd.glance.child [VENV]``: make Glance's
    virtualenv (tools/install-deps.sh runs it, so that tether-aio and the
    tests start at once)."""
    args = sys.argv[1:] if argv is None else argv
    runner.ensure_venv(args[0] if args else default_venv())
    return 0


if __name__ == '__main__':
    sys.exit(main())
