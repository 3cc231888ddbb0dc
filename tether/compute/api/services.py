"""Compute services (``/os-services``) in the API process, and the Host
every compute view is made of.

A hypervisor is the node of one tether-compute service record: they share
the record's integer id (before 2.53) and UUID (from 2.53).
"""

import dataclasses
import datetime
import re

from oslo_config import cfg
from oslo_utils import uuidutils

from tether.compute import exception
from tether.db.compute import service as db_services
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


def host_of(service):
    """The Host of a service record."""
    return Host(
        id=service.id, uuid=service.uuid, binary=service.binary,
        host=service.host,
        zone=service.availability_zone or CONF.default_availability_zone,
        disabled=service.disabled, disabled_reason=service.disabled_reason,
        forced_down=service.forced_down,
        is_up=service.is_up(CONF.service_down_time),
        updated_at=service.heartbeat_at or service.updated_at,
        hypervisor_hostname=service.hypervisor_hostname or service.host,
        host_ip=service.host_ip, stats=service.stats)


def is_integer_id(value):
    """Whether ``value`` names a record by its integer id (pre-2.53)."""
    return bool(_INTEGER.match(value)) and int(value) <= DB_MAX_INT


def is_uuid(value):
    return uuidutils.is_uuid_like(value)


def get_all(context, host=None, binary=None):
    return [host_of(r) for r in db_services.get_all(context, binary=binary,
                                                    host=host)]


def _check_id(service_id):
    # Neither an id nor a UUID: no record has it (and a number too large
    # for the column never reaches the database).
    if not (is_integer_id(service_id) or is_uuid(service_id)):
        raise exception.ComputeServiceNotFound(service_id=service_id)


def get_record(context, service_id):
    """The record of an id or UUID (ComputeServiceNotFound)."""
    _check_id(service_id)
    return db_services.get(context, service_id)


def update(context, service_id, values):
    """Change ``disabled``, ``disabled_reason``, ``forced_down``."""
    service = get_record(context, service_id)
    if service.binary != fields.ServiceBinary.COMPUTE:
        raise exception.InvalidInput(
            reason='updating a %s service is not supported; only %s '
                   'services can be updated.'
                   % (service.binary, fields.ServiceBinary.COMPUTE))
    return host_of(db_services.update(context, service.id, values))


def delete(context, service_id):
    """Delete a service record; ComputeServiceInUse while its host has
    instances. A tether-compute that still runs registers again when it
    starts next."""
    _check_id(service_id)
    db_services.destroy_unused(context, service_id)
