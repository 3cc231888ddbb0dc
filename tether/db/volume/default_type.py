"""Queries on projects' default volume types (/default-types); they
leave this module as DefaultType records."""

import importlib

from oslo_db import exception as db_exc
import sqlalchemy as sa

from tether.db import base
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import default_type as default_type_obj
from tether.volume import exception

db = session.VOLUME


def _insert_of(dialect_name):
    """The INSERT with ON CONFLICT (or ON DUPLICATE KEY) of the database's
    dialect (sqlite, postgresql or mysql): the dialect module is the one
    the engine already loaded; importing all three at the top cost every
    API process 2 MiB of PostgreSQL's (issue #16)."""
    return importlib.import_module('sqlalchemy.dialects.'
                                   + dialect_name).insert


def is_default(type_id_column):
    """A clause: the type is some project's default."""
    dvt = models.DefaultVolumeType
    return sa.exists().where(dvt.volume_type_id == type_id_column)


def projects_of(context, type_id):
    """The projects whose default is the type (in the caller's
    transaction)."""
    dvt = models.DefaultVolumeType
    return list(context.session.scalars(
        sa.select(dvt.project_id).where(dvt.volume_type_id == type_id)
        .order_by(dvt.project_id)))


@db.reader
def get(context, project_id):
    """The project's default, or None."""
    row = context.session.get(models.DefaultVolumeType, project_id)
    return default_type_obj.DefaultType.from_db(row) if row else None


@db.reader
def get_all(context):
    """Every project's default, by project."""
    rows = context.session.scalars(
        sa.select(models.DefaultVolumeType)
        .order_by(models.DefaultVolumeType.project_id))
    return [default_type_obj.DefaultType.from_db(row) for row in rows]


@db.writer
def put(context, project_id, type_id):
    """Make ``type_id`` the project's default, in one INSERT ... ON
    CONFLICT UPDATE (two sets at once: the last one wins, neither
    fails). VolumeTypeNotFound if the type is gone (its foreign key)."""
    insert = _insert_of(context.session.bind.dialect.name)
    now = base.now()
    stmt = insert(models.DefaultVolumeType).values(
        project_id=project_id, volume_type_id=type_id, created_at=now)
    if context.session.bind.dialect.name == 'mysql':
        stmt = stmt.on_duplicate_key_update(volume_type_id=type_id,
                                            updated_at=now)
    else:
        stmt = stmt.on_conflict_do_update(
            index_elements=['project_id'],
            set_={'volume_type_id': type_id, 'updated_at': now})
    try:
        context.session.execute(stmt)
    except db_exc.DBReferenceError:
        raise exception.VolumeTypeNotFound(volume_type_id=type_id)
    return default_type_obj.DefaultType.from_db(
        context.session.get(models.DefaultVolumeType, project_id,
                            populate_existing=True))


@db.writer
def delete(context, project_id):
    """The project has no default of its own any more (none is fine)."""
    dvt = models.DefaultVolumeType
    context.session.execute(
        sa.delete(dvt).where(dvt.project_id == project_id)
        .execution_options(synchronize_session=False))
