"""What the volume backends report of themselves, in the API process:
their pools (``/scheduler-stats/get_pools``) and a backend's
capabilities (``/capabilities/{host}``), from the reports each
tether-volume writes with its heartbeat (at most report_interval old)."""

from oslo_config import cfg

from tether.db.volume import service as db_services
from tether.objects import fields
from tether.volume.api import types as volume_types
from tether.volume import exception
from tether.volume import scheduler

CONF = cfg.CONF

# Cinder's standard capability properties (a driver's
# _init_standard_capabilities) that tether's backends have.
_THIN = {'title': 'Thin Provisioning', 'description':
         'Sets thin provisioning.', 'type': 'boolean'}


def _live_services(context):
    """The volume services the scheduler would use: enabled, not
    frozen, up."""
    return [s for s in db_services.get_all(
                context, binary=fields.ServiceBinary.VOLUME)
            if not s.disabled and not s.frozen and
            s.is_up(CONF.service_down_time)]


def get_pools(context, name=None, volume_type=None):
    """[(pool name, capabilities)]: every pool of the live services
    (``name``: that one; ``volume_type``: those whose capabilities
    satisfy the type's extra specs)."""
    extra_specs = None
    if volume_type is not None:
        extra_specs = volume_types.get(context, volume_type).extra_specs
    pools = []
    for service in _live_services(context):
        caps = service.capabilities
        for pool in caps.get('pools', [caps]):
            pool_name = '%s#%s' % (service.host,
                                   pool.get('pool_name', 'default'))
            merged = scheduler.pool_capabilities(caps, pool)
            merged['timestamp'] = service.heartbeat_at
            if name is not None and pool_name != name:
                continue
            if not scheduler.satisfies(merged, extra_specs):
                continue
            pools.append((pool_name, merged))
    return pools


def get_capabilities(context, host):
    """The capabilities of the volume service of ``host`` (a backend,
    ``host@backend``; a pool's name names its backend), or
    ServiceNotFound."""
    backend = host.partition('#')[0]
    found = db_services.get_all(context, binary=fields.ServiceBinary.VOLUME,
                                host=backend)
    if not found:
        raise exception.ServiceNotFound(host=host,
                                        binary=fields.ServiceBinary.VOLUME)
    caps = found[0].capabilities
    properties = {}
    pools = caps.get('pools', [caps])
    if any(p.get('thin_provisioning_support') for p in pools):
        properties['thin_provisioning'] = dict(_THIN)
    return {
        'namespace': 'OS::Storage::Capabilities::%s' % backend,
        'vendor_name': caps.get('vendor_name'),
        'volume_backend_name': caps.get('volume_backend_name'),
        'pool_name': None,
        'driver_version': caps.get('driver_version'),
        'storage_protocol': caps.get('storage_protocol'),
        'display_name': None,
        'description': None,
        'visibility': None,
        'replication_targets': [],
        'properties': properties,
    }
