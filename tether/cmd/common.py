"""What every tether command does first, and the built-in WSGI server."""

import signal
import socket
import sys
import threading

from cheroot import wsgi as cheroot_wsgi
from oslo_config import cfg
from oslo_log import log as logging

from tether.api import pipeline
from tether.cmd import http_errors
from tether import malloc_arenas
from tether import rpc

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


def parse_args(argv, description=None, cli_opts=()):
    """Every command's start: malloc's arenas capped (before any thread
    starts), the configuration parsed, the log set up."""
    malloc_arenas.limit()
    if cli_opts:
        CONF.register_cli_opts(cli_opts)
    CONF(argv, project='tether', description=description)
    logging.setup(CONF, 'tether')


class _SharedSocketServer(cheroot_wsgi.Server):
    """cheroot on a socket that listens already: one that another process
    (tether-aio) made and shares with every worker, which each accept
    from it."""

    def __init__(self, sock, *args, **kwargs):
        self._shared_socket = sock
        super().__init__(sock.getsockname(), *args, **kwargs)

    def bind(self, family, type, proto=0):
        self.socket = self._shared_socket
        self.bind_addr = self.socket.getsockname()
        return self.socket

    def prepare(self):
        super().prepare()
        # Every worker wakes for a new connection and one takes it. cheroot
        # gives its socket a 1 s timeout, so the others would then wait in
        # accept() for a second while their open connections go unserved;
        # without one, accept() finds nothing at once and cheroot goes on.
        self.socket.settimeout(0)


def listening_socket(host, port, backlog=128):
    """A TCP socket listening on ``host``:``port`` (0: a free port), set
    up as cheroot sets up its own, to share with worker processes."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    return sock


class WSGIServer:
    """A threaded HTTP server (cheroot) for one WSGI app, in a thread; on
    ``host``:``port``, or on ``sock``, a socket that listens already."""

    def __init__(self, name, app, host, port, threads, sock=None):
        self.name = name
        kwargs = dict(numthreads=threads, server_name='tether',
                      # cheroot's default listen backlog, 5, resets a
                      # burst of new connections.
                      request_queue_size=128)
        if sock is None:
            self.server = cheroot_wsgi.Server((host, port), app, **kwargs)
        else:
            self.server = _SharedSocketServer(sock, app, **kwargs)
        # Its own answers (to malformed HTTP) in the APIs' fault format.
        self.server.ConnectionClass = http_errors.Connection
        self.thread = None

    def start(self):
        self.server.prepare()
        self.thread = threading.Thread(target=self.server.serve,
                                       name=self.name, daemon=True)
        self.thread.start()

    @property
    def port(self):
        return self.server.bind_addr[1]

    def stop(self):
        self.server.stop()
        if self.thread is not None:
            self.thread.join(10)


def stop_on_signals(stop=None):
    """From now on SIGINT and SIGTERM set ``stop`` (a new Event if None),
    which is returned. A command that says it is ready installs this
    first: a signal sent the moment it said so then stops it cleanly,
    rather than killing it."""
    stop = stop or threading.Event()

    def _handler(signum, frame):
        LOG.info('Caught signal %s, stopping', signum)
        stop.set()

    signal.signal(signal.SIGINT, _handler)
    signal.signal(signal.SIGTERM, _handler)
    return stop


def wait_for_signal(stop=None):
    """Block until SIGINT or SIGTERM: until ``stop`` is set, the Event
    of an earlier :func:`stop_on_signals` (None: the handlers are
    installed now)."""
    stop = stop or stop_on_signals()
    while not stop.wait(1):
        pass


def serve_api(argv, description, name, build, opt_prefix):
    """The body of an API command: configuration, the app from
    api-paste.ini, the threaded server on ``[DEFAULT] <opt_prefix>_listen``,
    ``_listen_port`` and ``_threads``, until a signal. 1 when the app
    cannot be loaded (the log says why)."""
    parse_args(sys.argv[1:] if argv is None else argv, description)
    rpc.init(CONF)
    try:
        application = build(CONF)
    except pipeline.ConfigurationError as exc:
        LOG.critical('%s', exc)
        rpc.cleanup()
        return 1
    server = WSGIServer(name, application, CONF[opt_prefix + '_listen'],
                        CONF[opt_prefix + '_listen_port'],
                        CONF[opt_prefix + '_threads'])
    server.start()
    wait_for_signal()
    server.stop()
    rpc.cleanup()
    return None
