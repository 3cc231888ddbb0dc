"""An API worker of tether-aio: both APIs, served from the listening
sockets the main process shares (see :mod:`tether.cmd.aio_workers`)."""

import json
import os
import socket
import sys
import threading

from oslo_config import cfg
from oslo_log import log as logging

from tether.api.compute import app as compute_app
from tether.api.volume import app as volume_app
from tether.cmd import aio_config
from tether.cmd import aio_workers
from tether.cmd import common
from tether.conf import aio as conf_aio
from tether.objects import compute as compute_objects
from tether.objects import volume as volume_objects
from tether import rpc
from tether import socket_transport

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


def _stop_when_parent_goes(stop):
    """Set ``stop`` when standard input closes (the main process ended)."""
    def watch():
        # The raw descriptor: a daemon thread blocked in sys.stdin's
        # buffered reader holds its lock, which stops the interpreter's
        # exit.
        try:
            while os.read(0, 4096):
                pass
        except OSError:
            pass
        stop.set()
    threading.Thread(target=watch, name='parent-watch', daemon=True).start()


def main(argv=None):
    settings = json.loads(os.environ[aio_workers.ENVIRONMENT])
    CONF.register_opts(conf_aio.aio_opts)
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'A tether-aio API worker', cli_opts=aio_config.cli_opts)
    aio_config.configure(CONF.state_dir, quiet=True, keystone=CONF.keystone)
    aio_config.set_endpoints(settings['image_url'], settings['volume_url'],
                             settings['compute_url'],
                             settings.get('share_url'))
    volume_objects.register_all()
    compute_objects.register_all()
    socket_transport.install(settings['broker'])
    rpc.init(CONF, url=socket_transport.URL)
    aio_config.no_heartbeats()
    servers = []
    for name, build, threads in (
            ('volume', volume_app.build, CONF.osapi_volume_threads),
            ('compute', compute_app.build, CONF.osapi_compute_threads)):
        sock = socket.socket(fileno=settings['sockets'][name])
        server = common.WSGIServer('%s-api' % name, build(CONF), None, None,
                                   threads, sock=sock)
        server.start()
        servers.append(server)
    stop = common.stop_on_signals()
    _stop_when_parent_goes(stop)
    LOG.info('API worker %d serving', settings['index'])
    sys.stdout.buffer.write(aio_workers.READY)
    sys.stdout.buffer.flush()
    try:
        common.wait_for_signal(stop)
    finally:
        for server in servers:
            server.stop()
        rpc.cleanup()
    return 0


if __name__ == '__main__':
    sys.exit(main())
