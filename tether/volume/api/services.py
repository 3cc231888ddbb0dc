"""Service records as the API shows them: liveness, zones; API process."""

import dataclasses
import datetime

from oslo_config import cfg

from tether.db.volume import service as db_services
from tether.objects import fields
from tether.volume import exception

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
    frozen: bool = False


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
        backend_state=backend_state, frozen=service.frozen)


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


def set_enabled(context, host, binary, enabled, reason=None):
    """Enable (reason cleared) or disable a service: the scheduler puts
    no new volume on a disabled volume service. ServiceNotFound."""
    return _status(db_services.set_disabled(
        context, host, binary, not enabled, None if enabled else reason))


def _set_frozen(context, host, frozen):
    backend = host.partition('#')[0]
    try:
        db_services.set_frozen(context, backend,
                               fields.ServiceBinary.VOLUME, frozen)
    except exception.ServiceNotFound:
        raise exception.InvalidServiceHost(host=host)


def freeze(context, host):
    """Freeze a backend (Cinder's freeze_host): no volume is placed on
    it, and no volume or snapshot of it is deleted, nor a snapshot taken,
    until it is thawed. Its storage needs no call: the API refuses."""
    _set_frozen(context, host, True)


def thaw(context, host):
    _set_frozen(context, host, False)


def assert_not_frozen(context, backend_host, what):
    """BackendFrozen if ``backend_host`` (a volume's host) is frozen."""
    if backend_host and db_services.is_frozen(context, backend_host):
        raise exception.BackendFrozen(host=backend_host.partition('#')[0],
                                      what=what)
