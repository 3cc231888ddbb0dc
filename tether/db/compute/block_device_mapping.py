"""Queries on the disks of instances (block_device_mapping): their
volumes, and the local root disk of a server made of an image; rows
leave this module as BlockDeviceMapping objects."""

import dataclasses

from oslo_db import exception as db_exc
from oslo_serialization import jsonutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from tether.compute import exception
from tether.db import base
from tether.db import cas
from tether.db.compute import models
from tether.db import session
from tether.objects.compute import block_device_mapping as bdm_obj
from tether.objects import fields

db = session.COMPUTE
BDM = bdm_obj.BlockDeviceMapping
# The columns a BDM is made of (for selects of rows rather than models).
_COLUMNS = [field.name for field in dataclasses.fields(BDM)]


def new_values(volume_id, **values):
    """Values of a new row for volume ``volume_id`` (None: a volume the
    compute host makes of an image, or a local disk)."""
    return dict(uuid=uuidutils.generate_uuid(), volume_id=volume_id,
                **values)


@db.writer
def create(context, instance_uuid, values):
    """Record a volume attach starting; a second one of the same volume
    to the same instance gets VolumeAlreadyAttachedToServer."""
    row = models.BlockDeviceMapping(instance_uuid=instance_uuid, **values)
    try:
        with context.session.begin_nested():
            context.session.add(row)
    except db_exc.DBDuplicateEntry:
        raise exception.VolumeAlreadyAttachedToServer(
            volume_id=values['volume_id'], instance_id=instance_uuid)
    return BDM.from_db(row)


def _values(values):
    values = dict(values)
    if 'connection_info' in values and values['connection_info'] is not None:
        values['connection_info'] = jsonutils.dumps(values['connection_info'])
    return values


@db.writer
def update(context, bdm_id, values, expected_status=None):
    """Change a row; False if it is gone or not in ``expected_status``."""
    where = [models.BlockDeviceMapping.id == bdm_id]
    if expected_status is not None:
        where.append(models.BlockDeviceMapping.status == expected_status)
    return cas.update(context, models.BlockDeviceMapping, where,
                      _values(values))


@db.writer
def destroy(context, bdm_id):
    context.session.execute(sa.delete(models.BlockDeviceMapping).where(
        models.BlockDeviceMapping.id == bdm_id))


_VOLUME = models.BlockDeviceMapping.destination_type == \
    fields.BdmDestinationType.VOLUME


def _of_instance(instance_uuid):
    return (sa.select(models.BlockDeviceMapping)
            .where(models.BlockDeviceMapping.instance_uuid == instance_uuid)
            .order_by(models.BlockDeviceMapping.boot_index.is_(None),
                      models.BlockDeviceMapping.boot_index,
                      models.BlockDeviceMapping.id))


@db.reader
def get_by_instance(context, instance_uuid):
    """The volumes of an instance, the root first, in boot order."""
    return [BDM.from_db(row) for row in context.session.scalars(
        _of_instance(instance_uuid).where(_VOLUME))]


@db.reader
def get_all_by_instance(context, instance_uuid):
    """Every disk of an instance (its local root disk too), in boot
    order."""
    return [BDM.from_db(row) for row in context.session.scalars(
        _of_instance(instance_uuid))]


@db.reader
def get_by_volume(context, instance_uuid, volume_id):
    row = context.session.scalars(
        sa.select(models.BlockDeviceMapping)
        .where(models.BlockDeviceMapping.instance_uuid == instance_uuid,
               models.BlockDeviceMapping.volume_id == volume_id)).first()
    if row is None:
        raise exception.VolumeAttachmentNotFound(volume_id=volume_id,
                                                 instance_id=instance_uuid)
    return BDM.from_db(row)


@db.reader
def get_by_volume_id(context, volume_id):
    """Every row of volume ``volume_id`` (one per instance it is on)."""
    return [BDM.from_db(row) for row in context.session.scalars(
        sa.select(models.BlockDeviceMapping)
        .where(models.BlockDeviceMapping.volume_id == volume_id))]


@db.reader
def get_all_by_instances(context, instance_uuids):
    """{instance_uuid: [rows of every disk]} for many instances in one
    query."""
    found = {uuid: [] for uuid in instance_uuids}
    if not instance_uuids:
        return found
    # On the session's connection: rows of columns need no ORM loading.
    for row in context.session.connection().execute(
            base.select_columns(models.BlockDeviceMapping, _COLUMNS)
            .where(models.BlockDeviceMapping.instance_uuid.in_(
                list(instance_uuids)))
            .order_by(models.BlockDeviceMapping.id)):
        found[row.instance_uuid].append(
            BDM.from_columns(dict(zip(_COLUMNS, row))))
    return found
