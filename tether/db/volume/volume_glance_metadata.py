"""Queries on a volume's image metadata (Cinder's volume_glance_metadata,
``volume_image_metadata`` in the API): the writes of os-set_image_metadata
and os-unset_image_metadata."""

import sqlalchemy as sa

from tether.db import base
from tether.db import cas
from tether.db import key_values
from tether.db import session
from tether.db.volume import models
from tether.volume import exception

db = session.VOLUME


def _claim(context, volume_id, refused_statuses, project_id):
    """Touch the volume unless its status is one of ``refused_statuses``:
    one conditional UPDATE, which also holds the volume's row until the
    transaction ends (writers of its image metadata go one at a time).
    VolumeNotFound, or InvalidVolumeStatus naming the status found."""
    vol = models.Volume
    where = [vol.id == volume_id, vol.status.not_in(refused_statuses)]
    if project_id is not None:
        where.append(vol.project_id == project_id)
    if cas.update(context, vol, where, {'updated_at': base.now()}):
        return
    q = sa.select(vol.status).where(vol.id == volume_id)
    if project_id is not None:
        q = q.where(vol.project_id == project_id)
    status = context.session.scalar(q)
    if status is None:
        raise exception.VolumeNotFound(volume_id=volume_id)
    raise exception.InvalidVolumeStatus(
        volume_id=volume_id, status=status,
        expected='a status other than ' + ', '.join(refused_statuses))


def _all(context, volume_id):
    model = models.VolumeGlanceMetadata
    return dict(context.session.execute(
        sa.select(model.key, model.value)
        .where(model.volume_id == volume_id)).all())


@db.writer
def update(context, volume_id, metadata, refused_statuses, project_id=None):
    """Set the given keys (the others stay); returns them all."""
    _claim(context, volume_id, refused_statuses, project_id)
    key_values.write(context.session, models.VolumeGlanceMetadata,
                     'volume_id', volume_id, metadata)
    return _all(context, volume_id)


@db.writer
def delete(context, volume_id, key, refused_statuses, project_id=None):
    """Remove one key, in one DELETE whose row count says whether it was
    there (VolumeImageMetadataNotFound)."""
    _claim(context, volume_id, refused_statuses, project_id)
    model = models.VolumeGlanceMetadata
    if not cas.delete(context, model, [model.volume_id == volume_id,
                                       model.key == key]):
        raise exception.VolumeImageMetadataNotFound(volume_id=volume_id,
                                                    key=key)
