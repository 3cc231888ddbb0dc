"""Queries on group types and their group specs; types leave this module
as GroupType objects."""

from oslo_db import exception as db_exc
import sqlalchemy as sa

from tether.db import base
from tether.db import key_values
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import group_type as group_type_obj
from tether.volume import group_exception as exception

db = session.VOLUME
GT = models.GroupType
SORT_KEYS = ('id', 'name', 'description', 'is_public', 'created_at',
             'updated_at')


def _row(context, name_or_id, by_name=True):
    where = GT.id == name_or_id
    if by_name:
        where = sa.or_(where, GT.name == name_or_id)
    row = context.session.scalars(sa.select(GT).where(where)).first()
    if row is None:
        raise exception.GroupTypeNotFound(group_type_id=name_or_id)
    return row


@db.reader
def get(context, type_id):
    """The type of that id (GroupTypeNotFound)."""
    return group_type_obj.GroupType.from_db(_row(context, type_id, False))


@db.reader
def get_by_name_or_id(context, name_or_id):
    return group_type_obj.GroupType.from_db(_row(context, name_or_id))


@db.reader
def get_page(context, is_public=None, marker=None, limit=None,
             sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
             offset=None):
    """One page of types; ``is_public`` None means public and private."""
    q = sa.select(GT)
    if is_public is not None:
        q = q.where(GT.is_public == sa.true() if is_public
                    else GT.is_public == sa.false())
    rows = keyset.page(
        context.session, q, GT, sort_keys, sort_dirs, marker=marker,
        not_found=lambda m: exception.GroupTypeNotFound(group_type_id=m),
        limit=limit, offset=offset)
    return [group_type_obj.GroupType.from_db(row) for row in rows]


@db.writer
def create(context, values, group_specs=None):
    """Insert a type with its specs; GroupTypeExists on a taken name."""
    row = GT(**values)
    row.group_specs = [models.GroupTypeSpec(key=k, value=v)
                       for k, v in (group_specs or {}).items()]
    context.session.add(row)
    try:
        context.session.flush()
    except db_exc.DBDuplicateEntry:
        raise exception.GroupTypeExists(name=values['name'])
    return group_type_obj.GroupType.from_db(row)


@db.writer
def update(context, type_id, values):
    """Change name, description or is_public: one UPDATE."""
    try:
        count = context.session.execute(
            sa.update(GT).where(GT.id == type_id)
            .values(updated_at=base.now(), **values)
            .execution_options(synchronize_session=False)).rowcount
    except db_exc.DBDuplicateEntry:
        raise exception.GroupTypeExists(name=values['name'])
    if count != 1:
        raise exception.GroupTypeNotFound(group_type_id=type_id)
    context.session.expire_all()
    return group_type_obj.GroupType.from_db(_row(context, type_id, False))


@db.writer
def destroy(context, type_id):
    """Delete a type no group has: one DELETE whose WHERE says so (the
    foreign key catches a group committed in between)."""
    in_use = sa.exists().where(models.Group.group_type_id == GT.id)
    try:
        count = context.session.execute(
            sa.delete(GT).where(GT.id == type_id, sa.not_(in_use))
            .execution_options(synchronize_session=False)).rowcount
    except db_exc.DBReferenceError:
        count = 0
    if count == 1:
        return
    _row(context, type_id, False)
    raise exception.GroupTypeInUse(group_type_id=type_id)


@db.writer
def update_specs(context, type_id, specs):
    """Create or replace some group specs of the type; returns them."""
    _row(context, type_id, False)
    key_values.write(context.session, models.GroupTypeSpec, 'group_type_id',
                     type_id, specs)
    context.session.execute(
        sa.update(GT).where(GT.id == type_id).values(updated_at=base.now())
        .execution_options(synchronize_session=False))
    return dict(specs)


@db.writer
def delete_spec(context, type_id, key):
    _row(context, type_id, False)
    spec = models.GroupTypeSpec
    result = context.session.execute(
        sa.delete(spec).where(spec.group_type_id == type_id, spec.key == key)
        .execution_options(synchronize_session=False))
    if result.rowcount == 0:
        raise exception.GroupTypeSpecsNotFound(group_type_id=type_id,
                                               key=key)
