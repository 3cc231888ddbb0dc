"""Compute service records: registration, heartbeats, what a host
reports; rows leave this module as ComputeService objects."""


from oslo_db import exception as db_exc
from oslo_serialization import jsonutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from tether.compute import exception
from tether.db import base
from tether.db.compute import aggregate
from tether.db.compute import models
from tether.db import session
from tether.objects.compute import service as service_obj

db = session.COMPUTE
Service = models.ComputeService


def _obj(context, row, zones=None):
    """The record of a service row, in the zone its host's aggregates
    put it in (``zones``: {host: zone} of every host, else read for this
    one), or else in the zone it registered in."""
    zone = (zones.get(row.host) if zones is not None
            else aggregate.zone_of_host(context, row.host))
    return service_obj.ComputeService.from_db(
        row, availability_zone=zone or row.availability_zone)


@db.writer
def register(context, host, binary, topic, availability_zone, version,
             rpc_version, hypervisor_hostname=None, host_ip=None):
    """Create or refresh the record of a starting service; return it."""
    now = base.now()
    values = dict(topic=topic, availability_zone=availability_zone,
                  version=version, rpc_current_version=rpc_version,
                  hypervisor_hostname=hypervisor_hostname, host_ip=host_ip,
                  heartbeat_at=now, updated_at=now)
    result = context.session.execute(
        sa.update(Service).where(Service.host == host,
                                 Service.binary == binary)
        .values(**values).execution_options(synchronize_session=False))
    if result.rowcount == 0:
        try:
            with context.session.begin_nested():
                context.session.add(Service(
                    uuid=uuidutils.generate_uuid(), host=host,
                    binary=binary, disabled=False, forced_down=False,
                    report_count=0, **values))
        except db_exc.DBDuplicateEntry:
            pass
    return _obj(context, context.session.scalars(
        sa.select(Service).where(Service.host == host,
                                 Service.binary == binary)).one())


@db.writer
def heartbeat(context, service_id, stats=None, traits=None):
    values = {'heartbeat_at': base.now(),
              'report_count': Service.report_count + 1}
    if stats is not None:
        values['stats'] = jsonutils.dumps(stats)
    if traits is not None:
        values['traits'] = jsonutils.dumps(sorted(traits))
    context.session.execute(
        sa.update(Service).where(Service.id == service_id)
        .values(**values).execution_options(synchronize_session=False))


@db.reader
def get_all(context, binary=None, host=None):
    q = sa.select(Service).order_by(Service.id)
    if binary:
        q = q.where(Service.binary == binary)
    if host:
        q = q.where(Service.host == host)
    zones = aggregate.zones_by_host(context)
    return [_obj(context, row, zones) for row in context.session.scalars(q)]


def _get(context, service_id):
    column = (Service.uuid if uuidutils.is_uuid_like(service_id)
              else Service.id)
    if column is Service.id:
        try:
            service_id = int(service_id)
        except (TypeError, ValueError):
            raise exception.ComputeServiceNotFound(service_id=service_id)
    row = context.session.scalars(
        sa.select(Service).where(column == service_id)).first()
    if row is None:
        raise exception.ComputeServiceNotFound(service_id=service_id)
    return row


@db.reader
def get(context, service_id):
    """By integer id or UUID; ComputeServiceNotFound if there is none."""
    return _obj(context, _get(context, service_id))


@db.reader
def get_by_host(context, host, binary):
    row = context.session.scalars(
        sa.select(Service).where(Service.host == host,
                                 Service.binary == binary)).first()
    if row is None:
        raise exception.ComputeServiceNotFound(service_id=host)
    return _obj(context, row)


@db.writer
def update(context, service_id, values):
    row = _get(context, service_id)
    for key, value in values.items():
        setattr(row, key, value)
    context.session.flush()
    return _obj(context, row)


@db.writer
def destroy(context, service_id):
    row = _get(context, service_id)
    context.session.delete(row)


@db.writer
def destroy_unused(context, service_id):
    """Delete a service record if its host runs no live instance.

    The row is locked while the instances of its host are counted, as
    instances.create_on_host locks it while it places one there; a host
    with instances raises ComputeServiceInUse.
    """
    row = _get(context, service_id)
    context.session.execute(
        sa.select(Service.id).where(Service.id == row.id)
        .with_for_update()).first()
    count = context.session.scalar(
        sa.select(sa.func.count()).select_from(models.Instance)
        .where(models.Instance.host == row.host,
               models.Instance.deleted.is_(False)))
    if count:
        raise exception.ComputeServiceInUse(service_id=service_id,
                                            host=row.host, count=count)
    # As Nova: the host leaves its aggregates.
    context.session.execute(sa.delete(models.AggregateHost).where(
        models.AggregateHost.host == row.host))
    context.session.delete(row)
