"""Host selection for a new server, without Placement (API process).

A host is a candidate if its tether-compute is up and enabled (and in the
requested zone); its usable room is its memory and vCPUs times the
allocation ratios, less the memory reserved for the host. The claim
itself, which counts what the host already runs, is made when the
instance is inserted (tether.db.compute.instance.create_on_host), so
concurrent boots never overcommit a host.
"""

from oslo_config import cfg

from tether.db.compute import service as db_services
from tether.objects import fields

CONF = cfg.CONF


def _usable(context, availability_zone):
    """The compute services that are up, enabled and in the zone."""
    for service in db_services.get_all(
            context, binary=fields.ServiceBinary.COMPUTE):
        if service.disabled or not service.is_up(CONF.service_down_time):
            continue
        zone = service.availability_zone or CONF.default_availability_zone
        if availability_zone and zone != availability_zone:
            continue
        yield service


def candidates(context, availability_zone=None, min_service_version=0):
    """``(service_id, host, node, memory_mb, vcpus)``, most memory first,
    of the hosts whose tether-compute is at ``min_service_version`` or
    newer (what the server needs them to know)."""
    found = []
    for service in _usable(context, availability_zone):
        if (service.version or 0) < min_service_version:
            continue
        stats = service.stats
        memory_mb = int(stats.get('memory_mb', 0) *
                        CONF.ram_allocation_ratio -
                        CONF.reserved_host_memory_mb)
        vcpus = int(stats.get('vcpus', 0) * CONF.cpu_allocation_ratio)
        free = memory_mb - stats.get('memory_mb_used', 0)
        found.append((free, (service.id, service.host,
                             service.hypervisor_hostname, memory_mb,
                             vcpus)))
    found.sort(key=lambda item: -item[0])
    return [candidate for _free, candidate in found]


def _service(context, host):
    rows = db_services.get_all(context, binary=fields.ServiceBinary.COMPUTE,
                               host=host)
    return rows[0] if rows else None


def service_version(context, host):
    """The service version of the tether-compute of ``host`` (0 if none)."""
    service = _service(context, host)
    return service.version if service else 0


def host_traits(context, host):
    """The traits the tether-compute of ``host`` reported (its hypervisor
    record), as a set."""
    service = _service(context, host)
    return set(service.traits or ()) if service else set()


def versions_below(context, min_service_version, availability_zone=None):
    """{host: service version} of the usable hosts (up, enabled, in the
    zone) older than ``min_service_version``."""
    return {service.host: service.version or 0
            for service in _usable(context, availability_zone)
            if (service.version or 0) < min_service_version}
