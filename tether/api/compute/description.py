"""What the compute API's OpenAPI description (tether.api.openapi) and the
guards of its declared responses are made of: its service, route table
and path prefix."""

from tether.api.compute import routes
from tether.api.compute import versions
from tether.api import openapi
from tether.api import operations as api_operations


def api():
    return openapi.API('tether Compute API (v2.1, Nova-compatible)',
                       versions.SERVICE, routes.RESOURCES, '/v2.1')


def operations():
    return api_operations.of(versions.SERVICE, routes.RESOURCES)
