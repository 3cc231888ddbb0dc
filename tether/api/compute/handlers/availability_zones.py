"""Handlers of /os-availability-zone: list, detail.

The zones are those of the tether-compute services (the zone a host was
given, or ``default_availability_zone``). A zone is available when one of
its enabled services is up.
"""

from tether.api.compute.schemas import availability_zones as schema
from tether.api.compute.views import availability_zones as views
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import availability_zones as zones_api
from tether.policies.compute import availability_zones as policy


def _zones(req, detail):
    return wsgi.json_response({'availabilityZoneInfo': [
        {'zoneName': zone.name,
         'zoneState': {'available': zone.available},
         'hosts': views.hosts(zone) if detail and zone.available else None}
        for zone in zones_api.get_all(req.context)]})


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_availability_zones(req):
    req.context.can(policy.LIST, {})
    return _zones(req, detail=False)


@responses.declare(schema.DETAIL_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_availability_zones_detail(req):
    req.context.can(policy.DETAIL, {})
    return _zones(req, detail=True)
