"""WSGI entry point for gunicorn or uwsgi:
``tether.api.volume.wsgi_app:application``."""

import os
import threading

from oslo_config import cfg
from oslo_log import log as logging

from tether.api.volume import app
from tether import rpc


def init_application():
    """Configure from TETHER_CONFIG_FILE, then load [composite:osapi_volume]
    of the api-paste.ini that api_paste_config names (beside that file)."""
    conf_files = []
    conf_dir = os.environ.get('TETHER_CONFIG_DIR', '/etc/tether')
    conf_file = os.environ.get('TETHER_CONFIG_FILE',
                               os.path.join(conf_dir, 'tether.conf'))
    if os.path.exists(conf_file):
        conf_files.append(conf_file)
    # The WSGI server owns sys.argv: never parse it.
    cfg.CONF([], project='tether', default_config_files=conf_files)
    logging.setup(cfg.CONF, 'tether')
    rpc.init(cfg.CONF)
    return app.build(cfg.CONF)


class _LazyApplication:
    """Configure on the first request, in the worker that serves it."""

    def __init__(self):
        self._app = None
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        if self._app is None:
            with self._lock:
                if self._app is None:
                    self._app = init_application()
        return self._app(environ, start_response)


application = _LazyApplication()
