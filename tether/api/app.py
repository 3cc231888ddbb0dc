"""One factory for both APIs' WSGI apps.

Each API (tether.api.volume.app, tether.api.compute.app) is an
:class:`API`: the composite of api-paste.ini that is the whole API, its
routes and versions, its policy rules and its objects, and its OpenAPI
description. api-paste.ini's pipelines wrap its router (``app_factory``)
in the middlewares, among them the filter (``versions_factory``) that
answers version discovery and the description without a token.
"""

from tether.api import openapi
from tether.api import pipeline
from tether.api import wsgi
from tether.policies import enforcer


class API:
    def __init__(self, paste_app, routes, versions, list_rules,
                 register_objects, describe):
        self.paste_app = paste_app
        self.routes = routes
        self.versions = versions
        self.list_rules = list_rules
        self.register_objects = register_objects
        # paste filter: the version documents and the OpenAPI
        # description (of ``describe()``), answered without a token.
        self.versions_factory = wsgi.versions_filter(
            versions, [(openapi.PATH, {'GET': openapi.Server(describe)})])

    def build(self, conf=None):
        """The whole API: its composite of api-paste.ini, loaded."""
        return pipeline.load_app(self.paste_app, conf)

    def app_factory(self, global_conf, **local_conf):
        """paste app: the API's router, innermost in every pipeline."""
        conf = pipeline.current_conf()
        self.register_objects()
        enforcer.init(conf, self.list_rules())
        return wsgi.Router(self.versions.SERVICE, self.routes.declarations(),
                           getattr(self.routes, 'LEGACY_PREFIX', None))
