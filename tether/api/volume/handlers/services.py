"""Handler of /os-services: the volume services and their state."""

from tether.api import microversion
from tether.api import validation
from tether.api import wsgi
from tether.api.volume.schemas import services as schema
from tether.objects import fields
from tether.policies.volume import services as policy
from tether.volume.api import services as volume_services


def _view(req, svc):
    d = {
        'binary': svc.binary,
        'host': svc.host,
        'zone': svc.zone,
        'status': 'disabled' if svc.disabled else 'enabled',
        'state': 'up' if svc.is_up else 'down',
        'updated_at': svc.updated_at,
        'disabled_reason': svc.disabled_reason,
    }
    if svc.binary == fields.ServiceBinary.VOLUME:
        # No replication, failover or freeze in tether.
        d.update({'replication_status': 'disabled',
                  'active_backend_id': None, 'frozen': False})
        if microversion.at_least(req, '3.49'):
            d['backend_state'] = svc.backend_state
    if microversion.at_least(req, '3.7'):
        d['cluster'] = None
    return d


@validation.query(schema.LIST_QUERY)
def list_services(req):
    ctx = req.context
    ctx.can(policy.INDEX)
    params = req.validated_query
    services = volume_services.get_all(ctx, host=params.get('host'),
                                       binary=params.get('binary'))
    return wsgi.json_response({'services': [_view(req, s)
                                            for s in services]})
