"""The volume hosts (``/os-hosts``, Cinder's deprecated host API) in the
API process: the enabled volume services, and what each holds per
project."""

from oslo_config import cfg

from tether.db.volume import host as db_hosts
from tether.db.volume import service as db_services
from tether.objects import fields
from tether.volume import exception

CONF = cfg.CONF


def get_all(context, zone=None):
    """The enabled services of the volume service (of ``zone``): its
    volume hosts and backup hosts, as Cinder lists them (its scheduler
    too, which tether runs in its API)."""
    return [s for s in db_services.get_all(context)
            if not s.disabled and (not zone or s.availability_zone == zone)]


def _volume_hosts(context):
    return {s.host for s in get_all(context)
            if s.binary == fields.ServiceBinary.VOLUME}


def usage(context, host):
    """[(project, volumes, volume GiB, snapshots, snapshot GiB)]: first
    the total ('(total)'), then each project with volumes on the host,
    or ServiceNotFound if no enabled volume service runs there."""
    if host not in _volume_hosts(context):
        raise exception.ServiceNotFound(host=host,
                                        binary=fields.ServiceBinary.VOLUME)
    by_project = db_hosts.usage_by_project(context, host)
    total = tuple(sum(row[i] for row in by_project.values())
                  for i in range(4))
    return [('(total)',) + total] + [
        (project,) + row for project, row in sorted(by_project.items())]
