"""Build the compute API WSGI application."""

from oslo_config import cfg

from tether.api.compute import routes
from tether.api.compute import versions
from tether.api import wsgi
from tether import objects
from tether import policies


def build(conf=None):
    conf = conf or cfg.CONF
    objects.register_all()
    policies.init(conf)
    router = wsgi.Router(versions.SERVICE, routes.declarations())
    public = wsgi.Router(versions.SERVICE, versions.ROUTES)
    return wsgi.build_app(router, public, versions.PUBLIC_PATHS, conf,
                          request_id_headers=['X-Compute-Request-ID'])
