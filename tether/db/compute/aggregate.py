"""Queries on host aggregates, their hosts and metadata; rows leave this
module as Aggregate objects.

The rules on availability zones (a host in one zone at most; servers
never change zone) span several rows: each change locks the aggregate's
row, then the service rows of the hosts it touches (sorted by host),
which a server create also locks while it places a server on a host, so
that no create or other change slips between the check and the write.
"""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from tether.compute import aggregate_exception as agg_exception
from tether.db import base
from tether.db.compute import models
from tether.db import session
from tether.objects.compute import aggregate as aggregate_obj
from tether.objects import fields

db = session.COMPUTE
Aggregate = models.Aggregate
Host = models.AggregateHost
Metadata = models.AggregateMetadata
ZONE = aggregate_obj.AVAILABILITY_ZONE


def _objs(context, rows):
    ids = [row.id for row in rows]
    hosts = {i: [] for i in ids}
    metadata = {i: {} for i in ids}
    if ids:
        for aggregate_id, host in context.session.execute(
                sa.select(Host.aggregate_id, Host.host)
                .where(Host.aggregate_id.in_(ids)).order_by(Host.id)):
            hosts[aggregate_id].append(host)
        for aggregate_id, key, value in context.session.execute(
                sa.select(Metadata.aggregate_id, Metadata.key,
                          Metadata.value)
                .where(Metadata.aggregate_id.in_(ids))):
            metadata[aggregate_id][key] = value
    return [aggregate_obj.Aggregate.from_db(
        row, hosts=tuple(hosts[row.id]), metadata=metadata[row.id])
        for row in rows]


def _row(context, aggregate_id, lock=False):
    q = sa.select(Aggregate).where(Aggregate.id == aggregate_id)
    if lock:
        q = q.with_for_update()
    row = context.session.scalars(q).first()
    if row is None:
        raise agg_exception.AggregateNotFound(aggregate_id=aggregate_id)
    return row


def _one(context, aggregate_id):
    context.session.expire_all()
    return _objs(context, [_row(context, aggregate_id)])[0]


@db.reader
def get(context, aggregate_id):
    return _one(context, aggregate_id)


@db.reader
def get_all(context):
    return _objs(context, list(context.session.scalars(
        sa.select(Aggregate).order_by(Aggregate.id))))


def zones_by_host(context):
    """{host: the zone its aggregates put it in} (in the caller's
    transaction)."""
    return dict(context.session.execute(
        sa.select(Host.host, Metadata.value)
        .join(Metadata, Metadata.aggregate_id == Host.aggregate_id)
        .where(Metadata.key == ZONE)).all())


def zone_of_host(context, host):
    """The zone the aggregates of ``host`` put it in, or None (in the
    caller's transaction)."""
    return context.session.scalar(
        sa.select(Metadata.value)
        .join(Host, Host.aggregate_id == Metadata.aggregate_id)
        .where(Host.host == host, Metadata.key == ZONE).limit(1))


def _zones_of(context, hosts, but=None):
    """{host: zone} of ``hosts`` given by aggregates other than
    ``but``."""
    q = (sa.select(Host.host, Metadata.value)
         .join(Metadata, Metadata.aggregate_id == Host.aggregate_id)
         .where(Host.host.in_(hosts), Metadata.key == ZONE))
    if but is not None:
        q = q.where(Host.aggregate_id != but)
    return dict(context.session.execute(q).all())


def _lock_services(context, hosts):
    """Lock the compute service rows of ``hosts``; {host: the zone its
    service was registered in}."""
    rows = context.session.execute(
        sa.select(models.ComputeService.host,
                  models.ComputeService.availability_zone)
        .where(models.ComputeService.host.in_(sorted(hosts)),
               models.ComputeService.binary ==
               fields.ServiceBinary.COMPUTE)
        .order_by(models.ComputeService.host).with_for_update()).all()
    return dict(rows)


def _servers_on(context, hosts):
    return context.session.scalar(
        sa.select(sa.func.count()).select_from(models.Instance)
        .where(models.Instance.host.in_(hosts),
               models.Instance.deleted.is_(False))) if hosts else 0


def _check_zone(context, row, zone, hosts, action,
                conflict=agg_exception.InvalidAggregateAction):
    """Refuse the zone ``zone`` for the aggregate ``row`` with ``hosts``
    (Nova's is_safe_to_update_az): an empty name, a host another
    aggregate puts in another zone."""
    if not zone:
        raise conflict(action=action, aggregate_id=row.id,
                       reason='Aggregate %s does not support empty named '
                              'availability zone' % row.name)
    others = sorted({z for z in _zones_of(context, hosts, but=row.id)
                     .values() if z != zone})
    if others:
        raise conflict(action=action, aggregate_id=row.id,
                       reason='One or more hosts already in availability '
                              'zone(s) %s' % others)


def _touch(context, aggregate_id):
    context.session.execute(
        sa.update(Aggregate).where(Aggregate.id == aggregate_id)
        .values(updated_at=base.now())
        .execution_options(synchronize_session=False))


@db.writer
def create(context, name, zone=None):
    """AggregateNameExists for a name another aggregate has."""
    row = Aggregate(uuid=uuidutils.generate_uuid(), name=name)
    try:
        with context.session.begin_nested():
            context.session.add(row)
    except db_exc.DBDuplicateEntry:
        raise agg_exception.AggregateNameExists(aggregate_name=name)
    if zone:
        context.session.add(Metadata(aggregate_id=row.id, key=ZONE,
                                     value=zone))
    context.session.flush()
    return _one(context, row.id)


def _hosts(context, aggregate_id):
    return list(context.session.scalars(
        sa.select(Host.host).where(Host.aggregate_id == aggregate_id)))


def _set_metadata(context, row, changes, action):
    """Apply ``changes`` (key -> value, None: remove) after the zone
    rules: a new zone of hosts with servers would move them."""
    if ZONE in changes:
        hosts = _hosts(context, row.id)
        _lock_services(context, hosts)
        zone = changes[ZONE]
        _check_zone(context, row, zone, hosts, action)
        current = context.session.scalar(
            sa.select(Metadata.value).where(Metadata.aggregate_id == row.id,
                                            Metadata.key == ZONE))
        if zone != current and _servers_on(context, hosts):
            raise agg_exception.InvalidAggregateAction(
                action=action, aggregate_id=row.id,
                reason='One or more hosts contain instances in this zone')
    for key, value in changes.items():
        context.session.execute(
            sa.delete(Metadata).where(Metadata.aggregate_id == row.id,
                                      Metadata.key == key))
        if value is not None:
            context.session.add(Metadata(aggregate_id=row.id, key=key,
                                         value=value))
    _touch(context, row.id)


@db.writer
def update(context, aggregate_id, name=None, zone_given=False, zone=None):
    """Rename an aggregate and/or give it another zone."""
    row = _row(context, aggregate_id, lock=True)
    if name is not None and name != row.name:
        try:
            with context.session.begin_nested():
                context.session.execute(
                    sa.update(Aggregate).where(Aggregate.id == row.id)
                    .values(name=name)
                    .execution_options(synchronize_session=False))
        except db_exc.DBDuplicateEntry:
            raise agg_exception.AggregateNameExists(aggregate_name=name)
    if zone_given:
        _set_metadata(context, row, {ZONE: zone}, 'update')
    _touch(context, row.id)
    return _one(context, row.id)


@db.writer
def set_metadata(context, aggregate_id, changes):
    row = _row(context, aggregate_id, lock=True)
    _set_metadata(context, row, changes, 'update metadata of')
    return _one(context, row.id)


@db.writer
def destroy(context, aggregate_id):
    """Delete an aggregate that has no hosts."""
    row = _row(context, aggregate_id, lock=True)
    if _hosts(context, row.id):
        raise agg_exception.InvalidAggregateAction(
            action='delete', aggregate_id=aggregate_id,
            reason='Host aggregate is not empty')
    context.session.execute(sa.delete(Metadata).where(
        Metadata.aggregate_id == row.id))
    context.session.execute(sa.delete(Aggregate).where(
        Aggregate.id == row.id))


def _effective_zone(context, host, registered, but, default_zone):
    return (_zones_of(context, [host], but=but).get(host) or registered or
            default_zone)


@db.writer
def add_host(context, aggregate_id, host, default_zone):
    """Add a compute host (ComputeHostNotFound if there is none of that
    name); refused when the aggregate's zone would put it in two zones,
    or move its servers to another zone."""
    row = _row(context, aggregate_id, lock=True)
    registered = _lock_services(context, [host])
    if host not in registered:
        raise agg_exception.ComputeHostNotFound(host=host)
    zone = context.session.scalar(
        sa.select(Metadata.value).where(Metadata.aggregate_id == row.id,
                                        Metadata.key == ZONE))
    if zone is not None:
        _check_zone(context, row, zone, [host], 'add host to',
                    conflict=agg_exception.AggregateHostConflict)
        before = _effective_zone(context, host, registered[host], row.id,
                                 default_zone)
        count = _servers_on(context, [host])
        if count and before != zone:
            raise agg_exception.AggregateHostConflict(
                action='add host to', aggregate_id=row.id,
                reason="The host cannot be added to the aggregate as the "
                       "availability zone of the host would change from "
                       "'%s' to '%s' but the host already has %d "
                       "instance(s). Changing the AZ of an existing "
                       "instance is not supported by this action. Move "
                       "the instances away from this host then try again"
                       % (before, zone, count))
    try:
        with context.session.begin_nested():
            context.session.add(Host(aggregate_id=row.id, host=host))
    except db_exc.DBDuplicateEntry:
        raise agg_exception.AggregateHostExists(aggregate_id=aggregate_id,
                                                host=host)
    return _one(context, row.id)


@db.writer
def remove_host(context, aggregate_id, host, default_zone):
    """Remove a host; refused when its servers would change zone."""
    row = _row(context, aggregate_id, lock=True)
    registered = _lock_services(context, [host])
    if host not in _hosts(context, row.id):
        raise agg_exception.AggregateHostNotFound(
            aggregate_id=aggregate_id, host=host)
    zone = context.session.scalar(
        sa.select(Metadata.value).where(Metadata.aggregate_id == row.id,
                                        Metadata.key == ZONE))
    if zone is not None:
        after = _effective_zone(context, host, registered.get(host),
                                row.id, default_zone)
        count = _servers_on(context, [host])
        if count and after != zone:
            raise agg_exception.AggregateHostConflict(
                action='remove host from', aggregate_id=row.id,
                reason="The host cannot be removed from the aggregate as "
                       "the availability zone of the host would change "
                       "from '%s' to '%s' but the host already has %d "
                       "instance(s). Changing the AZ of an existing "
                       "instance is not supported by this action. Move "
                       "the instances away from this host then try again"
                       % (zone, after, count))
    context.session.execute(sa.delete(Host).where(
        Host.aggregate_id == row.id, Host.host == host))
    return _one(context, row.id)
