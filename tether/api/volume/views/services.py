"""Volume services as JSON, per microversion."""

from tether.api import microversion
from tether.api.volume import versions
from tether.objects import fields


def service(req, svc):
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
        if microversion.at_least(req, versions.BACKEND_STATE):
            d['backend_state'] = svc.backend_state
    if microversion.at_least(req, versions.SERVICE_CLUSTER):
        d['cluster'] = None
    return d
