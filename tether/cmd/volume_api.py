"""tether-volume-api: the volume API on the built-in threaded server."""

import sys

from oslo_config import cfg

from tether.api.volume import app
from tether.cmd import common
from tether import rpc

CONF = cfg.CONF


def main(argv=None):
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'The tether volume API')
    rpc.init(CONF)
    server = common.WSGIServer('volume-api', app.build(CONF),
                               CONF.osapi_volume_listen,
                               CONF.osapi_volume_listen_port,
                               CONF.osapi_volume_threads)
    server.start()
    common.wait_for_signal()
    server.stop()
    rpc.cleanup()
