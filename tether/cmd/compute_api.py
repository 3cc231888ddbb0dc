"""tether-compute-api: the compute API on the built-in threaded server."""

from tether.api.compute import app
from tether.cmd import common


def main(argv=None):
    return common.serve_api(argv, 'The tether compute API', 'compute-api',
                            app.build, 'osapi_compute')
