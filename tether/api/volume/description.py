"""What the volume API's OpenAPI description (tether.api.openapi) and the
guards of its declared responses are made of: its service, route table
and path prefix."""

from tether.api.volume import routes
from tether.api.volume import versions
from tether.api import openapi
from tether.api import operations as api_operations


def api():
    return openapi.API('tether Block Storage API (v3, Cinder-compatible)',
                       versions.SERVICE, routes.RESOURCES, '/v3')


def operations():
    return api_operations.of(versions.SERVICE, routes.RESOURCES)
