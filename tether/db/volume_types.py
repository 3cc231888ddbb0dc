"""Queries on volume types."""

import sqlalchemy as sa

from tether.db import models
from tether.db import session
from tether import exception


@session.reader
def get_all(context):
    return list(context.session.scalars(
        sa.select(models.VolumeType).order_by(models.VolumeType.name)))


@session.reader
def get(context, type_id):
    row = context.session.scalars(
        sa.select(models.VolumeType).where(models.VolumeType.id == type_id)
    ).first()
    if row is None:
        raise exception.VolumeTypeNotFound(volume_type_id=type_id)
    return row


@session.reader
def get_by_name_or_id(context, name_or_id):
    row = context.session.scalars(
        sa.select(models.VolumeType).where(sa.or_(
            models.VolumeType.id == name_or_id,
            models.VolumeType.name == name_or_id))).first()
    if row is None:
        raise exception.VolumeTypeNotFound(volume_type_id=name_or_id)
    return row
