"""Handler of /os-availability-zone: the zones of the volume services."""

from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import availability_zones as schema
from tether.api import wsgi
from tether.policies.volume import availability_zones as policy
from tether.volume.api import services as volume_services


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_availability_zones(req):
    ctx = req.context
    ctx.can(policy.LIST)
    zones = volume_services.availability_zones(ctx)
    return wsgi.json_response({'availabilityZoneInfo': [
        {'zoneName': name, 'zoneState': {'available': available}}
        for name, available in zones]})
