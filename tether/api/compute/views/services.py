"""Compute services as JSON, per microversion."""

from tether.api.compute import versions
from tether.api import microversion


def service(req, svc):
    out = {
        'id': (svc.uuid if microversion.at_least(req, versions.SERVICE_UUIDS)
               else svc.id),
        'binary': svc.binary,
        'host': svc.host,
        'zone': svc.zone,
        'status': 'disabled' if svc.disabled else 'enabled',
        'state': 'up' if svc.is_up else 'down',
        'updated_at': svc.updated_at,
        'disabled_reason': svc.disabled_reason,
    }
    if microversion.at_least(req, versions.FORCED_DOWN):
        out['forced_down'] = svc.forced_down
    return out
