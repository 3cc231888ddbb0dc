"""Hypervisors (``/os-hypervisors``) in the API process: the node of each
tether-compute, by the id and UUID of its service record."""

import time

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


# Capacity and usage the statistics sum (2.1 to 2.87).
_SUMMED = ('vcpus', 'memory_mb', 'local_gb', 'vcpus_used', 'memory_mb_used',
           'local_gb_used', 'running_vms', 'current_workload')


def statistics(context):
    """The capacity and usage of every enabled compute host summed, with
    ``count`` (as Nova sums its compute nodes: disabled hosts left
    out)."""
    hosts = [h for h in get_compute_hosts(context) if not h.disabled]
    out = {key: sum(h.stats.get(key, 0) for h in hosts) for key in _SUMMED}
    out['count'] = len(hosts)
    out['free_ram_mb'] = out['memory_mb'] - out['memory_mb_used']
    out['free_disk_gb'] = out['local_gb'] - out['local_gb_used']
    out['disk_available_least'] = sum(
        h.stats.get('disk_available_least',
                    h.stats.get('local_gb', 0) - h.stats.get('local_gb_used',
                                                             0))
        for h in hosts)
    return out


def uptime(hyp, now=None):
    """The uptime of a hypervisor's host as the ``uptime`` command words
    it (Nova answers that command's output): the time, how long the host
    has been up and its load averages, from what the host reported with
    its last heartbeat (``boot_time``, ``load_average``). None if the
    host has reported neither (a tether-compute older than this)."""
    boot = hyp.stats.get('boot_time')
    if boot is None:
        return None
    now = time.time() if now is None else now
    minutes = max(0, int(now - boot)) // 60
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    up = []
    if days:
        up.append('%d day%s' % (days, '' if days == 1 else 's'))
    up.append('%2d:%02d' % (hours, minutes) if hours
              else '%d min' % minutes)
    load = hyp.stats.get('load_average') or (0.0, 0.0, 0.0)
    return ' %s up %s,  load average: %s' % (
        time.strftime('%H:%M:%S', time.gmtime(now)), ',  '.join(up),
        ', '.join('%.2f' % value for value in load))
