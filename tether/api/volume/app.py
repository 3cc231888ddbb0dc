"""The volume API's WSGI application: ``[composite:osapi_volume]`` of
api-paste.ini, whose pipelines name ``app_factory`` (the router) and
``versions_factory`` (version discovery) of this module."""

from tether.api import app
from tether.api.volume import description
from tether.api.volume import routes
from tether.api.volume import versions
from tether.objects import volume as volume_objects
from tether.policies import volume as volume_policies

API = app.API('osapi_volume', routes, versions, volume_policies.list_rules,
              volume_objects.register_all,
              description.api)

build = API.build
app_factory = API.app_factory
versions_factory = API.versions_factory
