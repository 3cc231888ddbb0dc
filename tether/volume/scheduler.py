"""Choose the backend for a new volume from the live services' reports."""

from oslo_config import cfg

from tether.db.volume import service as db_services
from tether.objects import fields

CONF = cfg.CONF


def _room_gb(caps):
    """Provisionable GiB left on a backend, thin provisioning included."""
    total = caps.get('total_capacity_gb') or 0
    free = caps.get('free_capacity_gb') or 0
    reserved = total * caps.get('reserved_percentage', 0) / 100.0
    ratio = caps.get('max_over_subscription_ratio', 1.0)
    provisioned = caps.get('provisioned_capacity_gb', 0)
    if caps.get('thin_provisioning_support'):
        return min(total * ratio - provisioned, (free - reserved) * ratio)
    return free - reserved


def choose_backend(context, size, availability_zone=None):
    """``host@backend#pool`` with the most room for ``size``, or None."""
    best = None
    for service in db_services.get_all(context,
                                       binary=fields.ServiceBinary.VOLUME):
        if service.disabled or not service.is_up(CONF.service_down_time):
            continue
        if availability_zone and \
                service.availability_zone != availability_zone:
            continue
        caps = service.capabilities
        for pool in caps.get('pools', [caps]):
            room = _room_gb(pool)
            if room >= size and (best is None or room > best[0]):
                best = (room, '%s#%s' % (service.host,
                                         pool.get('pool_name', 'default')))
    return best[1] if best else None
