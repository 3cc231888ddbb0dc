"""The compute API WSGI application, as api-paste.ini's pipelines build it."""

from oslo_config import cfg

from tether.api.compute import routes
from tether.api.compute import versions
from tether.api import pipeline
from tether.api import wsgi
from tether import objects
from tether.policies import enforcer
from tether.policies import compute as compute_policies

# The composite of api-paste.ini that is the whole compute API.
PASTE_APP = 'osapi_compute'


def build(conf=None):
    """The compute API: ``[composite:osapi_compute]`` of api-paste.ini."""
    return pipeline.load_app(PASTE_APP, conf or cfg.CONF)


def app_factory(global_conf, **local_conf):
    """paste app: the compute API's router, innermost in every pipeline."""
    conf = pipeline.current_conf()
    objects.register_all()
    enforcer.init(conf, compute_policies.list_rules())
    return wsgi.Router(versions.SERVICE, routes.declarations())


# paste filter: GET /, /v2.1 and /v2.1/ answered without authentication.
versions_factory = wsgi.versions_filter(versions)
