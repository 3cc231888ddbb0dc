"""WSGI entry point of the volume API for gunicorn or uWSGI:
``tether.api.volume.wsgi_app:application`` (tether.api.wsgi_app)."""

from tether.api.volume import app
from tether.api import wsgi_app


def init_application():
    """The volume API, configured from $TETHER_CONFIG_FILE (the
    ``tether-volume-wsgi`` script)."""
    return wsgi_app.init_application(app.build)


application = wsgi_app.LazyApplication(app.build)
