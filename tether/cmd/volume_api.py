"""tether-volume-api: the volume API on the built-in threaded server."""

import sys

from oslo_config import cfg
from oslo_log import log as logging

from tether.api import pipeline
from tether.api.volume import app
from tether.cmd import common
from tether import rpc

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


def main(argv=None):
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'The tether volume API')
    rpc.init(CONF)
    try:
        application = app.build(CONF)
    except pipeline.ConfigurationError as exc:
        LOG.critical('%s', exc)
        rpc.cleanup()
        return 1
    server = common.WSGIServer('volume-api', application,
                               CONF.osapi_volume_listen,
                               CONF.osapi_volume_listen_port,
                               CONF.osapi_volume_threads)
    server.start()
    common.wait_for_signal()
    server.stop()
    rpc.cleanup()
