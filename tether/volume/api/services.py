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


def _status(row):
    up = db_services.is_up(row, CONF.service_down_time)
    backend_state = None
    if row.binary == fields.ServiceBinary.VOLUME:
        reported = db_services.capabilities(row).get('backend_state', 'up')
        backend_state = reported if up else 'down'
    return ServiceStatus(
        binary=row.binary, host=row.host, zone=row.availability_zone,
        disabled=row.disabled, disabled_reason=row.disabled_reason,
        is_up=up, updated_at=row.heartbeat_at or row.updated_at,
        backend_state=backend_state)


def _host_matches(service_host, wanted):
    # As Cinder: "node1" also names its backends "node1@lvm", "node1@nfs".
    return service_host == wanted or service_host.startswith(wanted + '@')


def get_all(context, host=None, binary=None):
    rows = db_services.get_all(context, binary=binary or None)
    return [_status(r) for r in rows
            if (binary is None or r.binary == binary) and
            (host is None or _host_matches(r.host, host))]


def availability_zones(context):
    """[(zone, available)]: a zone is available if one of its enabled
    volume services is up."""
    zones = {}
    for row in db_services.get_all(context,
                                   binary=fields.ServiceBinary.VOLUME):
        name = row.availability_zone or CONF.storage_availability_zone
        up = not row.disabled and db_services.is_up(
            row, CONF.service_down_time)
        zones[name] = zones.get(name, False) or up
    return sorted(zones.items())
