"""WSGI entry points for gunicorn and uWSGI, shared by both APIs
(``tether.api.volume.wsgi_app:application``,
``tether.api.compute.wsgi_app:application``)."""

import os
import threading

from oslo_config import cfg
from oslo_log import log as logging

from tether import malloc_arenas
from tether import rpc

# A WSGI server imports this before its threads serve (and gunicorn's
# --preload before it forks): the arenas of its threads are capped as
# every tether command's are (tether.cmd.common.parse_args).
malloc_arenas.limit()


def init_application(build):
    """Configure from $TETHER_CONFIG_FILE, then ``build`` the API (its
    composite of the api-paste.ini that api_paste_config names, beside
    that file). The WSGI server owns sys.argv: it is never parsed."""
    conf_files = []
    conf_dir = os.environ.get('TETHER_CONFIG_DIR', '/etc/tether')
    conf_file = os.environ.get('TETHER_CONFIG_FILE',
                               os.path.join(conf_dir, 'tether.conf'))
    if os.path.exists(conf_file):
        conf_files.append(conf_file)
    cfg.CONF([], project='tether', default_config_files=conf_files)
    logging.setup(cfg.CONF, 'tether')
    rpc.init(cfg.CONF)
    return build(cfg.CONF)


class LazyApplication:
    """Configure on the first request, in the worker that serves it."""

    def __init__(self, build):
        self._build = build
        self._app = None
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        if self._app is None:
            with self._lock:
                if self._app is None:
                    self._app = init_application(self._build)
        return self._app(environ, start_response)
