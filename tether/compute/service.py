"""A running tether-compute: the manager, its RPC server, its heartbeat."""

import os
import socket

from oslo_config import cfg
from oslo_log import log as logging
import oslo_messaging as messaging

from tether.compute import manager as compute_manager
from tether.compute.ops import image_cache
from tether.compute import rpcapi as compute_rpcapi
from tether import context as t_context
from tether.db.compute import instance as db_instances
from tether.db.compute import service as db_services
from tether import periodic
from tether import rpc

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


def _host_ip():
    try:
        return socket.gethostbyname(CONF.host)
    except OSError:
        return '127.0.0.1'


def _boot_time():
    """When this host booted (seconds since the epoch; the kernel's
    ``btime``), or None where /proc/stat does not say."""
    try:
        with open('/proc/stat') as f:
            for line in f:
                if line.startswith('btime '):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _version_number(version):
    major, minor, micro = (tuple(version) + (0, 0, 0))[:3]
    return major * 1000000 + minor * 1000 + micro


class ComputeService:
    """Everything ``tether-compute`` runs (one per hypervisor host)."""

    def __init__(self, driver=None):
        self.host = CONF.host
        self.manager = compute_manager.ComputeManager(self.host, driver)
        self.context = t_context.get_admin_context()
        self.service_id = None
        self.server = None
        self.periodics = []

    def start(self):
        self.manager.events.start()
        self.manager.init_host(self.context)
        stats = self.manager.host_stats()
        record = db_services.register(
            self.context, self.host, compute_manager.BINARY,
            compute_rpcapi.TOPIC, CONF.default_availability_zone,
            compute_manager.SERVICE_VERSION,
            compute_rpcapi.ComputeAPI.RPC_API_VERSION,
            hypervisor_hostname=stats.hostname, host_ip=_host_ip())
        self.service_id = record.id
        self.report()
        target = messaging.Target(topic=compute_rpcapi.TOPIC,
                                  server=self.host)
        self.server = rpc.get_server(target, [self.manager])
        self.server.start()
        self.periodics = [periodic.Periodic('compute-heartbeat',
                                            CONF.report_interval,
                                            self.report)]
        every = image_cache.interval()
        if every is not None:
            self.periodics.append(periodic.Periodic(
                'compute-image-cache', every,
                lambda: self.manager.manage_image_cache(self.context)))
        for p in self.periodics:
            p.start()
        LOG.info('Compute service %s started', self.host)

    def report(self):
        """Heartbeat with the host's capacity, usage and traits."""
        stats = self.manager.host_stats()
        used_mb, used_vcpus, count = db_instances.host_usage(self.context,
                                                             self.host)
        db_services.heartbeat(self.context, self.service_id, stats={
            'memory_mb': stats.memory_mb,
            'memory_mb_used': used_mb,
            'memory_mb_free': stats.memory_mb_free,
            'vcpus': stats.vcpus,
            'vcpus_used': used_vcpus,
            'running_vms': count,
            'local_gb': 0,
            'local_gb_used': 0,
            'hypervisor_type': stats.hypervisor_type,
            'hypervisor_version': _version_number(stats.hypervisor_version),
            'cpu_info': {'arch': stats.cpu_arch},
            # The hypervisors' uptime (tether.compute.api.hypervisors).
            'boot_time': _boot_time(),
            'load_average': [round(v, 2) for v in os.getloadavg()],
        }, traits=self.manager.traits())

    def stop(self):
        for p in self.periodics:
            p.stop()
        # Work that waits for an event ends now (the next start's
        # recovery settles it), rather than holding the stop.
        self.manager.events.stop()
        if self.server is not None:
            rpc.stop_server(self.server)
            self.server = None
