"""Availability zones as JSON."""


def hosts(zone):
    """{host: {binary: state}} of the enabled services of a zone."""
    out = {}
    for svc in zone.hosts:
        out.setdefault(svc.host, {})[svc.binary] = {
            'available': svc.is_up,
            'active': not svc.disabled,
            'updated_at': svc.updated_at,
        }
    return out
