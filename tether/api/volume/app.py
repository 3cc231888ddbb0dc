"""The volume API WSGI application, as api-paste.ini's pipelines build it."""

from oslo_config import cfg

from tether.api import pipeline
from tether.api.volume import routes
from tether.api.volume import versions
from tether.api import wsgi
from tether import objects
from tether.policies import enforcer
from tether.policies import volume as volume_policies

# The composite of api-paste.ini that is the whole volume API.
PASTE_APP = 'osapi_volume'


def build(conf=None):
    """The volume API: ``[composite:osapi_volume]`` of api-paste.ini."""
    return pipeline.load_app(PASTE_APP, conf or cfg.CONF)


def app_factory(global_conf, **local_conf):
    """paste app: the volume API's router, innermost in every pipeline."""
    conf = pipeline.current_conf()
    objects.register_all()
    enforcer.init(conf, volume_policies.list_rules())
    return wsgi.Router(versions.SERVICE, routes.declarations())


# paste filter: GET /, /v3 and /v3/ answered without authentication.
versions_factory = wsgi.versions_filter(versions)
