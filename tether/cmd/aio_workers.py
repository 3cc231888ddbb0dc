"""The API worker processes of tether-aio (``--api-workers``).

One Python process runs one thread at a time, so an all-in-one process
serving its APIs itself cannot use a second core. With workers, the main
process keeps the managers (tether-volume and tether-compute), the
broker and Glance; it makes the two listening sockets and starts N
workers, each of which serves both APIs from those shared sockets (the
kernel hands each new connection to one worker that is waiting in
``accept``). A worker reaches the managers through
:mod:`tether.socket_transport` and the databases as the managers do (SQLite
in WAL mode takes several processes).

A worker is :mod:`tether.cmd.aio_worker` run by the same Python with
tether-aio's own arguments; what it needs beyond them (the sockets, the
broker, the URLs) it reads from the environment variable
``TETHER_AIO_WORKER``. It stops on SIGTERM, and when its standard input
closes: the main process holds the other end, so a worker never outlives
it. The main process starts a worker again if one dies.
"""

import json
import os
import subprocess
import sys
import threading
import time

from oslo_config import cfg
from oslo_log import log as logging

from tether.cmd import common

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
ENVIRONMENT = 'TETHER_AIO_WORKER'
WORKER_MODULE = 'tether.cmd.aio_worker'
READY = b'tether-aio worker ready\n'
# How long a worker may take to start (imports, the apps) before the main
# process gives up on it.
START_TIMEOUT = 60
# A worker that dies sooner than this after its start is not started
# again at once (a broken configuration would loop).
RESPAWN_PAUSE = 5


def default_count():
    """One worker per core, at most four."""
    return max(1, min(os.cpu_count() or 1, 4))


class Workers:
    """The worker processes of one tether-aio (its main process)."""

    def __init__(self, count, argv, settings):
        self.count = count
        self.argv = list(argv)
        self.settings = dict(settings)
        self.sockets = {}
        self._procs = [None] * count
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._monitor = None

    def listen(self, name, host, port):
        """Make the listening socket of an API; returns its port."""
        sock = common.listening_socket(host, port)
        self.sockets[name] = sock
        return sock.getsockname()[1]

    def start(self):
        for index in range(self.count):
            self._procs[index] = self._spawn(index)
        for index, proc in enumerate(self._procs):
            self._wait_ready(index, proc)
        self._monitor = threading.Thread(target=self._watch,
                                         name='aio-workers', daemon=True)
        self._monitor.start()

    def _spawn(self, index):
        fds = {name: sock.fileno() for name, sock in self.sockets.items()}
        env = dict(os.environ)
        env[ENVIRONMENT] = json.dumps(dict(self.settings, sockets=fds,
                                           index=index))
        proc = subprocess.Popen(
            [sys.executable, '-m', WORKER_MODULE] + self.argv,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
            pass_fds=tuple(fds.values()))
        proc.started = time.monotonic()
        LOG.info('Started API worker %d (pid %d)', index, proc.pid)
        return proc

    def _wait_ready(self, index, proc):
        # The worker's only line on stdout says it serves.
        line = _readline(proc.stdout, START_TIMEOUT)
        if line != READY:
            proc.kill()
            proc.wait()
            raise RuntimeError('API worker %d did not start (exit code %s); '
                               'its log says why' % (index, proc.returncode))

    def _watch(self):
        while not self._stopping.wait(0.5):
            for index, proc in enumerate(self._procs):
                if proc.poll() is None or self._stopping.is_set():
                    continue
                LOG.error('API worker %d (pid %d) exited with code %s',
                          index, proc.pid, proc.returncode)
                if time.monotonic() - proc.started < RESPAWN_PAUSE:
                    if self._stopping.wait(RESPAWN_PAUSE):
                        return
                try:
                    new = self._spawn(index)
                    self._wait_ready(index, new)
                except Exception:  # noqa: BLE001 - tried again next round
                    LOG.exception('API worker %d could not start again',
                                  index)
                    continue
                self._procs[index] = new

    def pids(self):
        return [proc.pid for proc in self._procs if proc is not None]

    def stop(self, timeout=10):
        self._stopping.set()
        if self._monitor is not None:
            self._monitor.join(timeout)
        for proc in self._procs:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + timeout
        for proc in self._procs:
            if proc is None:
                continue
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            proc.stdin.close()
            proc.stdout.close()
        for sock in self.sockets.values():
            sock.close()


def _readline(stream, timeout):
    """The first line of ``stream``, or b'' after ``timeout`` seconds."""
    got = []
    reader = threading.Thread(target=lambda: got.append(stream.readline()),
                              daemon=True)
    reader.start()
    reader.join(timeout)
    return got[0] if got else b''
