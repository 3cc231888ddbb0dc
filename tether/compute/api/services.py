"""Compute hosts as the API shows them: services, hypervisors, zones.

A hypervisor is the node of one tether-compute service record: they share
the record's integer id (before 2.53) and UUID (from 2.53).
"""

import dataclasses
import datetime
import re

from oslo_config import cfg
from oslo_utils import uuidutils

from tether.db.compute import instance as db_instances
from tether.db.compute import service as db_services
from tether import exception
from tether.objects import fields

CONF = cfg.CONF

DB_MAX_INT = 0x7FFFFFFF
_INTEGER = re.compile(r'^[0-9]+$')


@dataclasses.dataclass(frozen=True)
class Host:
    id: int
    uuid: str
    binary: str
    host: str
    zone: str
    disabled: bool
    disabled_reason: str | None
    forced_down: bool
    is_up: bool
    updated_at: datetime.datetime | None
    hypervisor_hostname: str
    host_ip: str | None
    # What the host last reported: capacity, usage, hypervisor, cpu_info.
    stats: dict


def _host(row):
    return Host(
        id=row.id, uuid=row.uuid, binary=row.binary, host=row.host,
        zone=row.availability_zone or CONF.default_availability_zone,
        disabled=row.disabled, disabled_reason=row.disabled_reason,
        forced_down=row.forced_down,
        is_up=db_services.is_up(row, CONF.service_down_time),
        updated_at=row.heartbeat_at or row.updated_at,
        hypervisor_hostname=row.hypervisor_hostname or row.host,
        host_ip=row.host_ip, stats=db_services.stats(row))


def is_integer_id(value):
    """Whether ``value`` names a record by its integer id (pre-2.53)."""
    return bool(_INTEGER.match(value)) and int(value) <= DB_MAX_INT


def is_uuid(value):
    return uuidutils.is_uuid_like(value)


# Services -------------------------------------------------------------------

def get_services(context, host=None, binary=None):
    return [_host(r) for r in db_services.get_all(context, binary=binary,
                                                  host=host)]


def _check_id(service_id):
    # Neither an id nor a UUID: no record has it (and a number too large
    # for the column never reaches the database).
    if not (is_integer_id(service_id) or is_uuid(service_id)):
        raise exception.ComputeServiceNotFound(service_id=service_id)


def _row(context, service_id):
    _check_id(service_id)
    return db_services.get(context, service_id)


def update_service(context, service_id, values):
    """Change ``disabled``, ``disabled_reason``, ``forced_down``."""
    row = _row(context, service_id)
    if row.binary != fields.ServiceBinary.COMPUTE:
        raise exception.InvalidInput(
            reason='updating a %s service is not supported; only %s '
                   'services can be updated.'
                   % (row.binary, fields.ServiceBinary.COMPUTE))
    return _host(db_services.update(context, row.id, values))


def delete_service(context, service_id):
    """Delete a service record; ComputeServiceInUse while its host has
    instances. A tether-compute that still runs registers again when it
    starts next."""
    _check_id(service_id)
    db_services.destroy_unused(context, service_id)


# Hypervisors ----------------------------------------------------------------

def _hypervisors(context):
    return [_host(r) for r in db_services.get_all(
        context, binary=fields.ServiceBinary.COMPUTE)]


def get_hypervisors(context, hostname_pattern=None, limit=None,
                    marker=None):
    """Hypervisors by id; ``hostname_pattern`` matches a part of the
    hypervisor hostname, ``marker`` is the id or UUID of the last one of
    the previous page. There is one per compute host, so the page is cut
    here rather than in SQL."""
    found = _hypervisors(context)
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


def get_hypervisor(context, hypervisor_id):
    """By integer id or UUID; HypervisorNotFound if there is none."""
    try:
        row = _row(context, hypervisor_id)
    except exception.ComputeServiceNotFound:
        raise exception.HypervisorNotFound(hypervisor_id=hypervisor_id)
    if row.binary != fields.ServiceBinary.COMPUTE:
        raise exception.HypervisorNotFound(hypervisor_id=hypervisor_id)
    return _host(row)


def instances_on(context, host):
    """The live instances of a host (the ``servers`` of a hypervisor)."""
    return db_instances.get_by_host(context, host)


# Availability zones ---------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Zone:
    name: str
    # One of its enabled compute services is up.
    available: bool
    # Its enabled compute services.
    hosts: list


def availability_zones(context):
    """The zones of the compute services, the available ones first."""
    by_name = {}
    for host in _hypervisors(context):
        by_name.setdefault(host.zone, []).append(host)
    zones = []
    for name, hosts in by_name.items():
        enabled = [h for h in hosts if not h.disabled]
        zones.append(Zone(name=name,
                          available=any(h.is_up for h in enabled),
                          hosts=enabled))
    zones.sort(key=lambda z: (not z.available, z.name))
    return zones
