"""Service records as the API shows them: liveness, zones; API process."""

import dataclasses
import datetime

from oslo_config import cfg

from tether.db.volume import service as db_services
from tether.objects import fields

CONF = cfg.CONF


@dataclasses.dataclass(frozen=True)
class ServiceStatus:
    binary: str
    host: str
    zone: str | None
    disabled: bool
    disabled_reason: str | None
    is_up: bool
    updated_at: datetime.datetime | None
    # What the backend last reported about itself ('up' unless it said
    # otherwise); only volume services have one.
    backend_state: str | None


def _status(service):
    up = service.is_up(CONF.service_down_time)
    backend_state = None
    if service.binary == fields.ServiceBinary.VOLUME:
        reported = service.capabilities.get('backend_state', 'up')
        backend_state = reported if up else 'down'
    return ServiceStatus(
        binary=service.binary, host=service.host,
        zone=service.availability_zone, disabled=service.disabled,
        disabled_reason=service.disabled_reason, is_up=up,
        updated_at=service.heartbeat_at or service.updated_at,
        backend_state=backend_state)


def _host_matches(service_host, wanted):
    # As Cinder: "node1" also names its backends "node1@lvm", "node1@nfs".
    return service_host == wanted or service_host.startswith(wanted + '@')


def get_all(context, host=None, binary=None):
    return [_status(s) for s in db_services.get_all(context,
                                                    binary=binary or None)
            if (binary is None or s.binary == binary) and
            (host is None or _host_matches(s.host, host))]


def availability_zones(context):
    """[(zone, available)]: a zone is available if one of its enabled
    volume services is up."""
    zones = {}
    for service in db_services.get_all(context,
                                       binary=fields.ServiceBinary.VOLUME):
        name = service.availability_zone or CONF.storage_availability_zone
        up = not service.disabled and service.is_up(CONF.service_down_time)
        zones[name] = zones.get(name, False) or up
    return sorted(zones.items())
