"""Hypervisors (``/os-hypervisors``) in the API process: the node of each
tether-compute, by the id and UUID of its service record."""

from tether.compute.api import services
from tether.compute import exception
from tether.db.compute import instance as db_instances
from tether.objects import fields


def get_compute_hosts(context):
    """The Host of every tether-compute."""
    return services.get_all(context, binary=fields.ServiceBinary.COMPUTE)


def get_all(context, hostname_pattern=None, limit=None, marker=None):
    """Hypervisors by id; ``hostname_pattern`` matches a part of the
    hypervisor hostname, ``marker`` is the id or UUID of the last one of
    the previous page. There is one per compute host, so the page is cut
    here rather than in SQL."""
    found = get_compute_hosts(context)
    if hostname_pattern is not None:
        found = [h for h in found
                 if hostname_pattern in h.hypervisor_hostname]
    if marker is not None:
        index = next((i for i, h in enumerate(found)
                      if marker in (str(h.id), h.uuid)), None)
        if index is None:
            raise exception.InvalidInput(
                reason='marker [%s] not found' % marker)
        found = found[index + 1:]
    if limit is not None:
        found = found[:limit]
    return found


def get(context, hypervisor_id):
    """By integer id or UUID; HypervisorNotFound if there is none."""
    try:
        service = services.get_record(context, hypervisor_id)
    except exception.ComputeServiceNotFound:
        raise exception.HypervisorNotFound(hypervisor_id=hypervisor_id)
    if service.binary != fields.ServiceBinary.COMPUTE:
        raise exception.HypervisorNotFound(hypervisor_id=hypervisor_id)
    return services.host_of(service)


def instances_on(context, host):
    """The live instances of a host (the ``servers`` of a hypervisor)."""
    return db_instances.get_by_host(context, host)
