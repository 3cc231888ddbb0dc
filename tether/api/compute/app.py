"""The compute API's WSGI application: ``[composite:osapi_compute]`` of
api-paste.ini, whose pipelines name ``app_factory`` (the router) and
``versions_factory`` (version discovery) of this module."""

from tether.api import app
from tether.api.compute import description
from tether.api.compute import routes
from tether.api.compute import versions
from tether.objects import compute as compute_objects
from tether.policies import compute as compute_policies

API = app.API('osapi_compute', routes, versions,
              compute_policies.list_rules, compute_objects.register_all,
              description.api)

build = API.build
app_factory = API.app_factory
versions_factory = API.versions_factory
