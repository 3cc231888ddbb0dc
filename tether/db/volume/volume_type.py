"""Queries on volume types and their extra specs; types leave this module
as VolumeType objects."""

from oslo_db import exception as db_exc
import sqlalchemy as sa

from tether.db import base
from tether.db import key_values
from tether.db import keyset
from tether.db import session
from tether.db.volume import default_type
from tether.db.volume import models
from tether.db.volume import volume_type_access
from tether.objects.volume import volume_type as volume_type_obj
from tether.volume import exception

db = session.VOLUME


@db.reader
def get_by_name_or_id(context, name_or_id):
    row = context.session.scalars(
        sa.select(models.VolumeType).where(sa.or_(
            models.VolumeType.id == name_or_id,
            models.VolumeType.name == name_or_id))).first()
    if row is None:
        raise exception.VolumeTypeNotFound(volume_type_id=name_or_id)
    return volume_type_obj.VolumeType.from_db(row)


@db.reader
def names(context):
    """The names of every type (public or not): each has quota resources
    of its own (tether.volume.quota)."""
    return list(context.session.scalars(
        sa.select(models.VolumeType.name).order_by(models.VolumeType.name)))


@db.reader
def name_of_volume(context, volume_id):
    """The name of the type of a volume (None if it is gone)."""
    return context.session.scalar(
        sa.select(models.VolumeType.name)
        .join(models.Volume, models.Volume.volume_type_id ==
              models.VolumeType.id)
        .where(models.Volume.id == volume_id))


# Writes of the types API -----------------------------------------------------

SORT_KEYS = ('id', 'name', 'description', 'is_public', 'created_at',
             'updated_at')


def _in_use(type_id_column):
    """True where a volume has the type."""
    return sa.exists().where(models.Volume.volume_type_id == type_id_column)


def _in_group(type_id_column):
    """True where a group takes the type."""
    m = models.GroupVolumeTypeMapping
    return sa.exists().where(m.volume_type_id == type_id_column)


def _get_row(context, type_id):
    row = context.session.scalars(
        sa.select(models.VolumeType).where(models.VolumeType.id == type_id)
    ).first()
    if row is None:
        raise exception.VolumeTypeNotFound(volume_type_id=type_id)
    return row


@db.reader
def get_page(context, is_public=None, marker=None, limit=None,
             sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
             offset=None, project_id=None, all_private=True):
    """One page of types; ``is_public`` None means public and private.

    As Cinder's: ``project_id`` adds the private types on its access list
    to the public ones; ``all_private`` false leaves out the other
    private types (readers who are not administrators).
    """
    vt = models.VolumeType
    q = sa.select(vt)
    mine = (volume_type_access.accessible(project_id)
            if project_id is not None else sa.false())
    if not all_private:
        q = q.where(sa.or_(vt.is_public == sa.true(), mine))
    if is_public:
        q = q.where(sa.or_(vt.is_public == sa.true(), mine))
    elif is_public is not None:
        q = q.where(vt.is_public == sa.false())
    rows = keyset.page(
        context.session, q, models.VolumeType, sort_keys, sort_dirs,
        marker=marker,
        not_found=lambda m: exception.InvalidInput(
            reason='marker %s was not found' % m),
        limit=limit, offset=offset)
    return [volume_type_obj.VolumeType.from_db(row) for row in rows]


@db.writer
def create(context, values, extra_specs=None):
    """Insert a type with its extra specs; VolumeTypeExists on a taken name."""
    row = models.VolumeType(**values)
    row.extra_specs = [models.VolumeTypeExtraSpec(key=k, value=v)
                       for k, v in (extra_specs or {}).items()]
    context.session.add(row)
    try:
        context.session.flush()
    except db_exc.DBDuplicateEntry:
        raise exception.VolumeTypeExists(name=values['name'])
    return volume_type_obj.VolumeType.from_db(row)


@db.writer
def update(context, type_id, values, protected_name=None):
    """Change name, description or is_public in one conditional UPDATE.

    A type named ``protected_name`` (the configured default) keeps its name:
    volumes created without a type find it by that name.
    """
    vt = models.VolumeType
    q = sa.update(vt).where(vt.id == type_id)
    renaming = 'name' in values and protected_name is not None
    if renaming:
        q = q.where(sa.or_(vt.name != protected_name,
                           vt.name == values['name']))
    try:
        count = context.session.execute(
            q.values(updated_at=base.now(), **values)
            .execution_options(synchronize_session=False)).rowcount
    except db_exc.DBDuplicateEntry:
        raise exception.VolumeTypeExists(name=values['name'])
    row = _get_row(context, type_id)
    if count != 1:
        raise exception.VolumeTypeIsDefault(name=row.name, action='renamed')
    return volume_type_obj.VolumeType.from_db(row)


@db.writer
def destroy(context, type_id, protected_name):
    """Delete a type no volume uses and that is neither the default nor a
    project's default, or raise.

    One DELETE whose WHERE carries every rule, so a volume created (or a
    project default set) in the meantime cannot be left with a type that
    is gone.
    """
    vt = models.VolumeType
    try:
        count = context.session.execute(
            sa.delete(vt).where(vt.id == type_id, vt.name != protected_name,
                                sa.not_(_in_use(vt.id)),
                                sa.not_(default_type.is_default(vt.id)),
                                sa.not_(_in_group(vt.id)))
            .execution_options(synchronize_session=False)).rowcount
    except db_exc.DBReferenceError:
        # A volume or a default committed in between (invisible to the
        # NOT EXISTS under PostgreSQL's READ COMMITTED); the foreign key
        # caught it.
        count = 0
    if count == 1:
        return
    row = _get_row(context, type_id)
    if row.name == protected_name:
        raise exception.VolumeTypeIsDefault(name=row.name, action='deleted')
    projects = default_type.projects_of(context, type_id)
    if projects:
        raise exception.VolumeTypeIsProjectDefault(
            volume_type_id=type_id, projects=', '.join(projects[:5]) + (
                ' and %d more' % (len(projects) - 5)
                if len(projects) > 5 else ''))
    raise exception.VolumeTypeInUse(volume_type_id=type_id, what='it',
                                    action='deleted')


def _claim_unused(context, type_id):
    """Touch the type row if no volume uses it; the row stays locked.

    Volumes copy what they need from the extra specs (multiattach) when they
    are created, so specs change only while no volume has the type.
    """
    vt = models.VolumeType
    count = context.session.execute(
        sa.update(vt).where(vt.id == type_id, sa.not_(_in_use(vt.id)))
        .values(updated_at=base.now())
        .execution_options(synchronize_session=False)).rowcount
    if count != 1:
        _get_row(context, type_id)
        raise exception.VolumeTypeInUse(volume_type_id=type_id,
                                        what='its extra specs',
                                        action='changed')


@db.writer
def update_extra_specs(context, type_id, specs):
    """Create or replace the given keys; the others stay. Returns them all."""
    _claim_unused(context, type_id)
    return key_values.write(context.session, models.VolumeTypeExtraSpec,
                            'volume_type_id', type_id, specs)


@db.writer
def delete_extra_spec(context, type_id, key):
    _claim_unused(context, type_id)
    spec = models.VolumeTypeExtraSpec
    count = context.session.execute(
        sa.delete(spec).where(spec.volume_type_id == type_id,
                              spec.key == key)
        .execution_options(synchronize_session=False)).rowcount
    if count != 1:
        raise exception.VolumeTypeExtraSpecsNotFound(volume_type_id=type_id,
                                                     key=key)
