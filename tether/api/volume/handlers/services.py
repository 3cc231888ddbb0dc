"""Handler of /os-services: the volume services and their state."""

from tether.api import response_types as rt
from tether.api import validation
from tether.api.volume.schemas import services as schema
from tether.api.volume.views import services as views
from tether.api import wsgi
from tether.policies.volume import services as policy
from tether.volume.api import services as volume_services


@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.LIST_QUERY)
def list_services(req):
    ctx = req.context
    ctx.can(policy.INDEX)
    params = req.validated_query
    binary = params.get('binary')
    services = volume_services.get_all(
        ctx, host=params.get('host'),
        binary=views.stored_name(binary) if binary else binary)
    return wsgi.json_response({'services': [views.service(req, s)
                                            for s in services]})
