"""Queries on private volume types' access lists (the projects that may
use a private type); each answer is project IDs."""

from oslo_db import exception as db_exc
import sqlalchemy as sa

from tether.db import session
from tether.db.volume import models
from tether.volume import exception

db = session.VOLUME


def accessible(project_id, type_id_column=models.VolumeType.id):
    """A clause: ``project_id`` is on the access list of the type."""
    vtp = models.VolumeTypeProject
    return sa.exists().where(vtp.volume_type_id == type_id_column,
                             vtp.project_id == project_id)


def _lock_private(context, type_id, what):
    """Lock the type's row if it is private (an is_public change waits for
    this transaction), or raise VolumeTypeNotFound / VolumeTypeIsPublic."""
    vt = models.VolumeType
    is_public = context.session.execute(
        sa.select(vt.is_public).where(vt.id == type_id).with_for_update()
    ).scalar_one_or_none()
    if is_public is None:
        raise exception.VolumeTypeNotFound(volume_type_id=type_id)
    if is_public:
        raise exception.VolumeTypeIsPublic(volume_type_id=type_id,
                                           what=what)


@db.reader
def has_access(context, type_id, project_id):
    return bool(context.session.scalar(
        sa.select(accessible(project_id, type_id))))


@db.reader
def get_projects(context, type_id):
    """The projects on a private type's list, or VolumeTypeNotFound /
    VolumeTypeAccessListNotFound (a public type)."""
    vt, vtp = models.VolumeType, models.VolumeTypeProject
    is_public = context.session.scalar(
        sa.select(vt.is_public).where(vt.id == type_id))
    if is_public is None:
        raise exception.VolumeTypeNotFound(volume_type_id=type_id)
    if is_public:
        raise exception.VolumeTypeAccessListNotFound(volume_type_id=type_id)
    return list(context.session.scalars(
        sa.select(vtp.project_id).where(vtp.volume_type_id == type_id)
        .order_by(vtp.id)))


@db.writer
def add(context, type_id, project_id):
    """Put a project on a private type's list; the unique (type, project)
    decides between two adds of the same project
    (VolumeTypeAccessExists)."""
    _lock_private(context, type_id, 'it has no access list to add to')
    context.session.add(models.VolumeTypeProject(
        volume_type_id=type_id, project_id=project_id))
    try:
        context.session.flush()
    except db_exc.DBDuplicateEntry:
        raise exception.VolumeTypeAccessExists(volume_type_id=type_id,
                                               project_id=project_id)


@db.writer
def remove(context, type_id, project_id):
    """Take a project off a private type's list, in one DELETE whose row
    count says whether it was there (VolumeTypeAccessNotFound)."""
    _lock_private(context, type_id, 'it has no access list to remove from')
    vtp = models.VolumeTypeProject
    count = context.session.execute(
        sa.delete(vtp).where(vtp.volume_type_id == type_id,
                             vtp.project_id == project_id)
        .execution_options(synchronize_session=False)).rowcount
    if count != 1:
        raise exception.VolumeTypeAccessNotFound(volume_type_id=type_id,
                                                 project_id=project_id)
