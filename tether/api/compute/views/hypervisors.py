"""Hypervisors as JSON, per microversion."""

from oslo_serialization import jsonutils

from tether.api.compute import versions
from tether.api import microversion
from tether.compute.api import hypervisors as hypervisors_api

# Capacity and usage, left out from 2.88 (Placement has them in Nova).
_CAPACITY = ('vcpus', 'memory_mb', 'local_gb', 'vcpus_used',
             'memory_mb_used', 'local_gb_used', 'running_vms',
             'current_workload')


def _cpu_info(stats, as_object):
    info = stats.get('cpu_info') or {}
    if isinstance(info, str):
        try:
            info = jsonutils.loads(info)
        except ValueError:
            info = {}
    # A JSON string before 2.28, an object from 2.28.
    return info if as_object else jsonutils.dumps(info)


class HypervisorView:
    def __init__(self, req, with_servers=False):
        self.uuid_ids = microversion.at_least(req, versions.SERVICE_UUIDS)
        self.with_capacity = not microversion.at_least(
            req, versions.HYPERVISOR_UPTIME)
        self.cpu_info_object = microversion.at_least(
            req, versions.CPU_INFO_OBJECT)
        self.with_uptime = microversion.at_least(
            req, versions.HYPERVISOR_UPTIME)
        # From 2.75 "servers" is there, maybe empty, whenever asked for.
        self.always_servers = (
            with_servers and microversion.at_least(req, versions.STRICT_QUERY))

    def id_of(self, hyp):
        return hyp.uuid if self.uuid_ids else hyp.id

    def basic(self, hyp, servers=None):
        out = {'id': self.id_of(hyp),
               'hypervisor_hostname': hyp.hypervisor_hostname,
               'state': 'up' if hyp.is_up else 'down',
               'status': 'disabled' if hyp.disabled else 'enabled'}
        if servers or self.always_servers:
            out['servers'] = [{'name': i.name, 'uuid': i.uuid}
                              for i in servers or []]
        return out

    def uptime(self, hyp, uptime):
        """``/os-hypervisors/{id}/uptime`` (2.1 to 2.87)."""
        return dict(self.basic(hyp), uptime=uptime)

    def detail(self, hyp, servers=None):
        out = self.basic(hyp, servers)
        stats = hyp.stats
        out.update({
            'hypervisor_type': stats.get('hypervisor_type', 'QEMU'),
            'hypervisor_version': stats.get('hypervisor_version', 0),
            'host_ip': hyp.host_ip,
            'service': {'host': hyp.host, 'id': self.id_of(hyp),
                        'disabled_reason': hyp.disabled_reason},
        })
        if self.with_capacity:
            for key in _CAPACITY:
                out[key] = stats.get(key, 0)
            out['free_ram_mb'] = out['memory_mb'] - out['memory_mb_used']
            out['free_disk_gb'] = out['local_gb'] - out['local_gb_used']
            out['disk_available_least'] = stats.get('disk_available_least',
                                                    out['free_disk_gb'])
            out['cpu_info'] = _cpu_info(stats, self.cpu_info_object)
        if self.with_uptime:
            out['uptime'] = hypervisors_api.uptime(hyp)
        return out
