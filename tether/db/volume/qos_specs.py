"""Queries on QoS specs and their association with volume types; specs
leave this module as QosSpecs records.

A volume type has at most one QoS specs (its ``qos_specs_id``): an
associate is one conditional UPDATE of the type that finds it without
specs (or with these); a delete is one DELETE that finds no type with
the specs (or, forced, first takes them from every type, in the same
transaction). The foreign key catches a type given the specs by a
transaction the DELETE could not see.
"""

import functools

from oslo_db import exception as db_exc
import sqlalchemy as sa
from sqlalchemy import orm

from tether.db import base
from tether.db import key_values
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import qos_specs as qos_obj
from tether.volume import exception

db = session.VOLUME
Q = models.QualityOfServiceSpecs
VT = models.VolumeType
SORT_KEYS = ('id', 'name', 'consumer', 'created_at', 'updated_at')
FILTERS = ('id', 'name', 'consumer')


def _get_row(context, qos_specs_id):
    row = context.session.scalars(
        sa.select(Q).where(Q.id == qos_specs_id)).first()
    if row is None:
        raise exception.QoSSpecsNotFound(specs_id=qos_specs_id)
    return row


@db.reader
def get(context, qos_specs_id):
    return qos_obj.QosSpecs.from_db(_get_row(context, qos_specs_id))


@functools.cache
def _of_type_reads():
    """The specs of a type and their items, plain Core built once: every
    connection of an attachment reads them (mostly to find none)."""
    specs, types = Q.__table__, VT.__table__
    items = models.QualityOfServiceSpecsItem.__table__
    of_type = (sa.select(specs)
               .join(types, types.c.qos_specs_id == specs.c.id)
               .where(types.c.id == sa.bindparam('type_id')))
    items_of = (sa.select(items.c.key, items.c.value)
                .where(items.c.qos_specs_id == sa.bindparam('specs_id')))
    return of_type, items_of


@db.reader_connection
def of_type(context, type_id):
    """The QoS specs of a volume type, or None."""
    of_type, items_of = _of_type_reads()
    conn = context.connection
    row = conn.execute(of_type, {'type_id': type_id}).first()
    if row is None:
        return None
    return qos_obj.QosSpecs.from_row(
        row, dict(conn.execute(items_of, {'specs_id': row.id}).all()))


def _filtered(filters):
    q = sa.select(Q)
    for key, value in (filters or {}).items():
        q = q.where(getattr(Q, key) == value)
    return q


@db.reader
def get_all(context, filters=None, marker=None, limit=None,
            sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
            offset=None):
    rows = keyset.page(
        context.session, _filtered(filters), Q, sort_keys, sort_dirs,
        marker=marker, marker_query=sa.select(Q),
        not_found=lambda m: exception.QoSSpecsNotFound(specs_id=m),
        limit=limit, offset=offset)
    return [qos_obj.QosSpecs.from_db(row) for row in rows]


@db.writer
def create(context, values, specs):
    """Insert the specs with their keys; QoSSpecsExists on a taken name."""
    row = Q(**values)
    row.items = [models.QualityOfServiceSpecsItem(key=k, value=v)
                 for k, v in specs.items()]
    context.session.add(row)
    try:
        context.session.flush()
    except db_exc.DBDuplicateEntry:
        raise exception.QoSSpecsExists(name=values['name'])
    return qos_obj.QosSpecs.from_db(row)


def _touch(context, qos_specs_id, values=None):
    """Set ``values`` (and updated_at) on the specs' row, held until the
    transaction ends; QoSSpecsNotFound if it is gone."""
    count = context.session.execute(
        sa.update(Q).where(Q.id == qos_specs_id)
        .values(updated_at=base.now(), **(values or {}))
        .execution_options(synchronize_session=False)).rowcount
    if count != 1:
        raise exception.QoSSpecsNotFound(specs_id=qos_specs_id)


@db.writer
def update(context, qos_specs_id, specs, consumer=None):
    """Create or replace the keys of ``specs`` (the others stay), and the
    consumer if given; the specs as they are then."""
    _touch(context, qos_specs_id,
           {'consumer': consumer} if consumer is not None else None)
    key_values.write(context.session, models.QualityOfServiceSpecsItem,
                     'qos_specs_id', qos_specs_id, specs)
    context.session.expire_all()
    return qos_obj.QosSpecs.from_db(_get_row(context, qos_specs_id))


@db.writer
def delete_keys(context, qos_specs_id, keys):
    """Remove every one of ``keys``, or none (QoSSpecsKeyNotFound names
    the first the specs lack)."""
    _touch(context, qos_specs_id)
    item = models.QualityOfServiceSpecsItem
    have = set(context.session.scalars(
        sa.select(item.key).where(item.qos_specs_id == qos_specs_id)))
    for key in keys:
        if key not in have:
            raise exception.QoSSpecsKeyNotFound(specs_id=qos_specs_id,
                                                key=key)
    context.session.execute(
        sa.delete(item).where(item.qos_specs_id == qos_specs_id,
                              item.key.in_(list(keys)))
        .execution_options(synchronize_session=False))


@db.reader
def associations(context, qos_specs_id):
    """[(type id, type name)] of the types that have the specs."""
    _get_row(context, qos_specs_id)
    return [tuple(r) for r in context.session.execute(
        sa.select(VT.id, VT.name).where(VT.qos_specs_id == qos_specs_id)
        .order_by(VT.name, VT.id))]


def _type_row(context, type_id):
    row = context.session.execute(
        sa.select(VT.id, VT.qos_specs_id).where(VT.id == type_id)).first()
    if row is None:
        raise exception.VolumeTypeNotFound(volume_type_id=type_id)
    return row


@db.writer
def associate(context, qos_specs_id, type_id):
    """Give the type these specs: one UPDATE that finds the type without
    specs or with these already (then nothing changes)."""
    _get_row(context, qos_specs_id)
    try:
        count = context.session.execute(
            sa.update(VT).where(
                VT.id == type_id,
                sa.or_(VT.qos_specs_id.is_(None),
                       VT.qos_specs_id == qos_specs_id))
            .values(qos_specs_id=qos_specs_id, updated_at=base.now())
            .execution_options(synchronize_session=False)).rowcount
    except db_exc.DBReferenceError:
        # The specs were deleted since they were read.
        raise exception.QoSSpecsNotFound(specs_id=qos_specs_id)
    if count == 1:
        return
    row = _type_row(context, type_id)
    raise exception.VolumeTypeHasQoSSpecs(volume_type_id=type_id,
                                          qos_specs_id=row.qos_specs_id)


@db.writer
def disassociate(context, qos_specs_id, type_id):
    """Take the specs from the type (nothing changes if the type has
    other specs or none, as in Cinder)."""
    _get_row(context, qos_specs_id)
    _type_row(context, type_id)
    context.session.execute(
        sa.update(VT).where(VT.id == type_id,
                            VT.qos_specs_id == qos_specs_id)
        .values(qos_specs_id=None, updated_at=base.now())
        .execution_options(synchronize_session=False))


def _disassociate_all(context, qos_specs_id):
    return context.session.execute(
        sa.update(VT).where(VT.qos_specs_id == qos_specs_id)
        .values(qos_specs_id=None, updated_at=base.now())
        .execution_options(synchronize_session=False)).rowcount


@db.writer
def disassociate_all(context, qos_specs_id):
    _get_row(context, qos_specs_id)
    return _disassociate_all(context, qos_specs_id)


@db.writer
def destroy(context, qos_specs_id, force=False):
    """Delete the specs: refused (QoSSpecsInUse) while a type has them,
    unless ``force``, which takes them from every type first."""
    _get_row(context, qos_specs_id)
    if force:
        _disassociate_all(context, qos_specs_id)
    try:
        count = context.session.execute(
            sa.delete(Q).where(
                Q.id == qos_specs_id,
                sa.not_(sa.exists().where(VT.qos_specs_id == Q.id)))
            .execution_options(synchronize_session=False)).rowcount
    except db_exc.DBReferenceError:
        # A type was given the specs by a transaction committed in
        # between (PostgreSQL's READ COMMITTED); the foreign key says so.
        count = 0
    if count != 1:
        raise exception.QoSSpecsInUse(specs_id=qos_specs_id)


def front_end_unchanged(new_type_id):
    """A clause on a volume (for its conditional update): retyping it to
    ``new_type_id`` changes nothing the compute host applies, as
    Cinder's volume_qos_allows_retype: the volume is not attached
    (``available``), or both types have the same QoS specs (or none), or
    neither type's specs are the compute host's (consumer front-end or
    both). Its compute host got the limits when it connected, and tether
    does not change them under a running guest."""
    V = models.Volume
    new_qos = sa.select(VT.qos_specs_id).where(
        VT.id == new_type_id).scalar_subquery()
    old_qos = sa.select(VT.qos_specs_id).where(
        VT.id == V.volume_type_id).correlate(V).scalar_subquery()
    old_type = orm.aliased(VT)

    def front_end(*where):
        return sa.exists().where(Q.consumer.in_(('front-end', 'both')),
                                 *where)

    return sa.or_(
        V.status == 'available',
        sa.and_(old_qos.is_(None), new_qos.is_(None)),
        old_qos == new_qos,
        sa.and_(
            sa.not_(front_end(old_type.id == V.volume_type_id,
                              Q.id == old_type.qos_specs_id)
                    .correlate(V)),
            sa.not_(front_end(Q.id == new_qos))))
