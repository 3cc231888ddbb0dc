"""Queries on the projects given access to private flavors
(``flavor_projects``); the flavor is named by its API ID."""

from oslo_db import exception as db_exc
import sqlalchemy as sa

from tether.compute import exception
from tether.compute import flavor_exception
from tether.db import cas
from tether.db.compute import models
from tether.db import session

db = session.COMPUTE
Flavor = models.Flavor
FlavorProject = models.FlavorProject


def _flavor(context, flavorid):
    row = context.session.execute(
        sa.select(Flavor.id, Flavor.is_public)
        .where(Flavor.flavorid == flavorid)).first()
    if row is None:
        raise exception.FlavorNotFound(flavor_id=flavorid)
    return row


def _projects(context, flavor_pk):
    return list(context.session.scalars(
        sa.select(FlavorProject.project_id)
        .where(FlavorProject.flavor_id == flavor_pk)
        .order_by(FlavorProject.project_id)))


@db.reader
def get_projects(context, flavorid):
    """(is_public, the projects with access) of a flavor."""
    row = _flavor(context, flavorid)
    return row.is_public, _projects(context, row.id)


@db.writer
def add(context, flavorid, project_id, refuse_public=True):
    """Give ``project_id`` access; the projects with access after.

    FlavorAccessExists if it has it already (the unique constraint
    decides between two concurrent adds); FlavorAccessPublic if the
    flavor is public and ``refuse_public``.
    """
    row = _flavor(context, flavorid)
    if row.is_public and refuse_public:
        raise flavor_exception.FlavorAccessPublic()
    try:
        with context.session.begin_nested():
            context.session.add(FlavorProject(flavor_id=row.id,
                                              project_id=project_id))
    except db_exc.DBDuplicateEntry:
        raise flavor_exception.FlavorAccessExists(flavor_id=flavorid,
                                                  project_id=project_id)
    return _projects(context, row.id)


@db.writer
def remove(context, flavorid, project_id):
    """Take access away (one DELETE); the projects with access after.
    FlavorAccessNotFound if the project had none."""
    row = _flavor(context, flavorid)
    if not cas.delete(context, FlavorProject,
                      [FlavorProject.flavor_id == row.id,
                       FlavorProject.project_id == project_id]):
        raise flavor_exception.FlavorAccessNotFound(flavor_id=flavorid,
                                                    project_id=project_id)
    return _projects(context, row.id)
