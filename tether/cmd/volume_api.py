"""tether-volume-api: the volume API on the built-in threaded server."""

from tether.api.volume import app
from tether.cmd import common


def main(argv=None):
    return common.serve_api(argv, 'The tether volume API', 'volume-api',
                            app.build, 'osapi_volume')
