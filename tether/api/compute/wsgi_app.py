"""WSGI entry point of the compute API for gunicorn or uWSGI:
``tether.api.compute.wsgi_app:application`` (tether.api.wsgi_app)."""

from tether.api.compute import app
from tether.api import wsgi_app


def init_application():
    """The compute API, configured from $TETHER_CONFIG_FILE (the
    ``tether-compute-wsgi`` script)."""
    return wsgi_app.init_application(app.build)


application = wsgi_app.LazyApplication(app.build)
