"""Usage reports (``/os-simple-tenant-usage``) in the API process: the
hours each server ran within a period, and its flavor's vCPUs, memory and
disk times those hours, summed per project, as Nova counts them (from a
server's launch to its deletion, or to the end of the period)."""

import collections
import dataclasses
import datetime

from oslo_utils import timeutils

from tether.db.compute import simple_tenant_usage as db_usage
from tether.objects import fields


@dataclasses.dataclass
class ProjectUsage:
    tenant_id: str
    start: datetime.datetime
    stop: datetime.datetime
    server_usages: list = dataclasses.field(default_factory=list)
    total_hours: float = 0
    total_vcpus_usage: float = 0
    total_memory_mb_usage: float = 0
    total_local_gb_usage: float = 0


def _naive(value):
    """A UTC time without its zone (the instance fields have one)."""
    return value.replace(tzinfo=None) if value and value.tzinfo else value


def hours_for(launched_at, terminated_at, start, stop):
    """The hours a server launched at ``launched_at`` and ended at
    ``terminated_at`` (None: still there) ran between ``start`` and
    ``stop``."""
    if launched_at is None or launched_at > stop:
        return 0
    if terminated_at is not None and terminated_at < start:
        return 0
    end = min(stop, terminated_at) if terminated_at is not None else stop
    return max(0, (end - max(launched_at, start)).total_seconds() / 3600.0)


def _server_usage(instance, start, stop, now):
    launched = _naive(instance.launched_at)
    ended = _naive(instance.terminated_at)
    flavor = instance.flavor or {}
    hours = hours_for(launched, ended, start, stop)
    return {
        'instance_id': instance.uuid,
        'name': instance.display_name,
        'tenant_id': instance.project_id,
        'flavor': flavor.get('name', ''),
        'hours': hours,
        'vcpus': flavor.get('vcpus', instance.vcpus),
        'memory_mb': flavor.get('memory_mb', instance.memory_mb),
        'local_gb': (flavor.get('root_gb', 0) +
                     flavor.get('ephemeral_gb', 0)),
        'started_at': launched,
        'ended_at': ended,
        'state': ('terminated' if ended is not None
                  or instance.vm_state == fields.VmState.DELETED
                  else instance.vm_state),
        'uptime': int(((ended or now) - launched).total_seconds()),
    }


def report(context, start, stop, project_id=None, limit=None, marker=None):
    """(the ProjectUsage of each project, every server usage counted) of
    one page of the servers that ran between ``start`` and ``stop``
    (naive UTC; ``stop`` no later than now)."""
    now = timeutils.utcnow()
    instances = db_usage.get_active_by_window(
        context, start, stop, project_id=project_id, limit=limit,
        marker=marker)
    projects = collections.OrderedDict()
    servers = []
    for instance in instances:
        usage = _server_usage(instance, start, stop, now)
        project = projects.get(usage['tenant_id'])
        if project is None:
            project = projects[usage['tenant_id']] = ProjectUsage(
                usage['tenant_id'], start, stop)
        project.server_usages.append(usage)
        project.total_hours += usage['hours']
        project.total_vcpus_usage += usage['vcpus'] * usage['hours']
        project.total_memory_mb_usage += (usage['memory_mb'] *
                                          usage['hours'])
        project.total_local_gb_usage += usage['local_gb'] * usage['hours']
        servers.append(usage)
    return list(projects.values()), servers
