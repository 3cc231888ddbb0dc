"""Queries on volumes and their metadata; each status change is
conditional. Volumes leave this module as Volume objects."""

import functools

import sqlalchemy as sa

from tether.db import base
from tether.db import cas
from tether.db import key_values
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.db.volume import volume_rows
from tether.objects import fields
from tether.objects.volume import volume as volume_obj
from tether.volume import exception

db = session.VOLUME
SORT_KEYS = ('id', 'name', 'status', 'size', 'created_at', 'updated_at',
             'availability_zone', 'bootable', 'project_id', 'host',
             'volume_type_id', 'description', 'multiattach')


def _query(context, project_id=None):
    q = sa.select(models.Volume)
    if project_id is not None:
        q = q.where(models.Volume.project_id == project_id)
    return q


def _read(conn, volume_id, project_id=None):
    """The Volume object of a row, read as columns (as a page is), or
    VolumeNotFound; ``conn``, the session or connection that reads."""
    row = volume_rows.row(conn, volume_id, project_id)
    return volume_obj.Volume.from_row(
        row, volume_rows.related(conn, [volume_id])[volume_id])


@db.reader_connection
def get(context, volume_id, project_id=None):
    """The volume, or VolumeNotFound (also when another project owns it)."""
    return _read(context.connection, volume_id, project_id)


@db.writer
def create(context, values, metadata=None, admin_metadata=None,
           volume_type_name=None, image_metadata=None):
    """Insert a volume; the caller that knows its type's name says so."""
    db_volume = models.Volume(**values)
    db_volume.volume_metadata = [models.VolumeMetadata(key=k, value=v)
                                 for k, v in (metadata or {}).items()]
    db_volume.volume_admin_metadata = [
        models.VolumeAdminMetadata(key=k, value=v)
        for k, v in (admin_metadata or {}).items()]
    db_volume.volume_glance_metadata = [
        models.VolumeGlanceMetadata(key=k, value=v)
        for k, v in (image_metadata or {}).items()]
    context.session.add(db_volume)
    context.session.flush()
    return volume_obj.Volume.from_db(db_volume,
                                     volume_type_name=volume_type_name)


def _apply_filters(q, filters):
    for key, value in filters.items():
        if key == 'metadata':
            for mkey, mvalue in value.items():
                q = q.where(models.Volume.volume_metadata.any(
                    sa.and_(models.VolumeMetadata.key == mkey,
                            models.VolumeMetadata.value == mvalue)))
        elif isinstance(value, (list, tuple, set)):
            q = q.where(getattr(models.Volume, key).in_(value))
        else:
            q = q.where(getattr(models.Volume, key) == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None, limit=None,
            sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
            offset=None):
    """One page of volumes, in a stable order (keyset pagination).

    ``offset`` skips that many rows after the marker, before the limit.
    """
    q = _apply_filters(volume_rows.columns_query(project_id), filters or {})
    rows = keyset.page(
        context.session, q, models.Volume, sort_keys, sort_dirs,
        marker=marker, marker_query=_query(context, project_id),
        not_found=lambda m: exception.InvalidInput(
            reason='marker %s was not found' % m),
        limit=limit, offset=offset, columns=True)
    related = volume_rows.related(context.session.connection(),
                                  [row.id for row in rows])
    return [volume_obj.Volume.from_row(row, related[row.id])
            for row in rows]


@db.reader
def count(context, project_id=None, filters=None):
    q = _apply_filters(
        sa.select(sa.func.count(models.Volume.id)).select_from(models.Volume),
        filters or {})
    if project_id is not None:
        q = q.where(models.Volume.project_id == project_id)
    return int(context.session.scalar(q))


@db.reader
def summary(context, project_id=None):
    """(count, total size, {metadata key: sorted distinct values})."""
    q = sa.select(sa.func.count(models.Volume.id),
                  sa.func.coalesce(sa.func.sum(models.Volume.size), 0))
    mq = sa.select(models.VolumeMetadata.key,
                   models.VolumeMetadata.value).distinct().join(
        models.Volume, models.Volume.id == models.VolumeMetadata.volume_id)
    if project_id is not None:
        q = q.where(models.Volume.project_id == project_id)
        mq = mq.where(models.Volume.project_id == project_id)
    count, total = context.session.execute(q).one()
    metadata = {}
    for key, value in context.session.execute(mq):
        metadata.setdefault(key, []).append(value)
    return int(count), int(total), {k: sorted(v) for k, v in
                                    metadata.items()}


@db.reader
def get_all_by_host(context, host, statuses, unchanged_since=None):
    """Volumes of one backend (``host@backend``, any pool) in ``statuses``
    (and, with ``unchanged_since``, not changed since that time)."""
    # startswith, not LIKE: '_' and '%' in a host name are no patterns.
    q = sa.select(models.Volume).where(
        sa.or_(models.Volume.host == host,
               models.Volume.host.startswith(host + '#', autoescape=True)),
        models.Volume.status.in_(statuses))
    if unchanged_since is not None:
        q = q.where(sa.func.coalesce(models.Volume.updated_at,
                                     models.Volume.created_at)
                    < unchanged_since)
    return [volume_obj.Volume.from_db(row)
            for row in context.session.scalars(q)]


def _conditional_update(context, volume_id, values, expected_statuses,
                        project_id=None, extra=()):
    where = [models.Volume.id == volume_id]
    if expected_statuses is not None:
        where.append(models.Volume.status.in_(expected_statuses))
    if project_id is not None:
        where.append(models.Volume.project_id == project_id)
    return cas.update(context, models.Volume, where + list(extra), values)


def type_is(volume_type_id):
    """A clause for ``extra``: the volume is still of this type."""
    return models.Volume.volume_type_id == volume_type_id


def attach_status_in(statuses):
    """A clause for ``extra``: the volume's attach_status is one of
    ``statuses``."""
    return models.Volume.attach_status.in_(statuses)


def previous_status_in(statuses):
    """A clause for ``extra``: the volume's previous_status is one of
    ``statuses`` (None among them: it has none)."""
    return cas.one_of(models.Volume.previous_status, statuses)


@functools.cache
def _follow():
    volumes = models.Volume.__table__
    return (sa.update(volumes)
            .where(volumes.c.id == sa.bindparam('volume_id'),
                   volumes.c.status.in_(sa.bindparam('expected',
                                                     expanding=True)))
            .values(status=sa.bindparam('to_status'),
                    attach_status=sa.bindparam('to_attach_status')))


def follow_attachments(context, volume_id, status, attach_status,
                       expected_statuses):
    """In the caller's writer transaction: the volume's status and
    attach_status become those its attachments decide, if its status is
    one of ``expected_statuses`` (those that follow its attachments);
    True if they did. (One UPDATE built once, on the transaction's
    connection: every attachment's transition ends with it.)"""
    result = session.core_connection(context).execute(_follow(), {
        'volume_id': volume_id, 'expected': list(expected_statuses),
        'to_status': status, 'to_attach_status': attach_status})
    return result.rowcount == 1


@db.writer
def conditional_update(context, volume_id, values, expected_statuses,
                       project_id=None, extra=()):
    """UPDATE … WHERE status IN expected; True if this caller won."""
    return _conditional_update(context, volume_id, values, expected_statuses,
                               project_id, extra)


@db.writer
def transition(context, volume_id, values, expected_statuses,
               project_id=None, expected_size=None, read_back=True):
    """Conditional update that raises InvalidVolumeStatus when it loses.

    The error names the status the volume had when the update lost, read
    inside the same transaction. With ``expected_size`` the volume must
    also still have the size the caller read (and computed from). Returns
    the volume as the update left it, or None with ``read_back`` False
    (for a caller that knows what it wrote: one read less).
    """
    extra = ()
    if expected_size is not None:
        extra = (models.Volume.size == expected_size,)
    if _conditional_update(context, volume_id, values, expected_statuses,
                           project_id, extra):
        if not read_back:
            return None
        return _read(context.session, volume_id)
    current = volume_rows.row(context.session, volume_id, project_id)
    if current.status in expected_statuses:
        raise exception.InvalidVolume(
            reason='volume %s changed size from %sG to %sG while this '
                   'request was handled; retry it' % (
                       volume_id, expected_size, current.size))
    raise exception.InvalidVolumeStatus(
        volume_id=volume_id, status=current.status,
        expected=' or '.join(expected_statuses))


@db.writer
def update(context, volume_id, values, project_id=None):
    if not _conditional_update(context, volume_id, values, None, project_id):
        raise exception.VolumeNotFound(volume_id=volume_id)
    return _read(context.session, volume_id)


def fail_create_in_transaction(context, volume_id, expected_statuses):
    """A create that failed: ``error``, and no longer holding quota, if
    the volume is still in an expected status and held it; True if so
    (the caller gives the quota back in the same transaction)."""
    return _conditional_update(
        context, volume_id,
        {'status': fields.VolumeStatus.ERROR, 'use_quota': False},
        expected_statuses, extra=(models.Volume.use_quota.is_(True),))


def one_made_of_in_transaction(context, source_column, source_id, statuses):
    """The id of a volume in ``statuses`` whose ``source_column``
    (``snapshot_id`` or ``source_volid``) is ``source_id``, or None."""
    column = getattr(models.Volume, source_column)
    return context.session.scalar(
        sa.select(models.Volume.id).where(
            column == source_id, models.Volume.status.in_(statuses))
        .limit(1))


def destroy_in_transaction(context, volume_id, expected_statuses):
    """Delete the row if its status is still expected; True if deleted."""
    return cas.delete(context, models.Volume,
                      [models.Volume.id == volume_id,
                       models.Volume.status.in_(expected_statuses)])


# Metadata -----------------------------------------------------------------

def _metadata_model(admin):
    return models.VolumeAdminMetadata if admin else models.VolumeMetadata


def _set_metadata(context, volume_id, metadata, delete_others, admin):
    """Set the metadata; returns it all."""
    written = key_values.write(context.session, _metadata_model(admin),
                               'volume_id', volume_id, metadata,
                               delete_others)
    context.session.execute(
        sa.update(models.Volume).where(models.Volume.id == volume_id)
        .values(updated_at=base.now())
        .execution_options(synchronize_session=False))
    return written


@db.writer
def metadata_update(context, volume_id, metadata, delete_others,
                    project_id=None, admin=False):
    """Merge (or replace, with delete_others) metadata; returns it all."""
    volume_rows.row(context.session, volume_id, project_id)
    return _set_metadata(context, volume_id, metadata, delete_others, admin)


@db.writer
def metadata_delete(context, volume_id, key, project_id=None, admin=False):
    volume_rows.row(context.session, volume_id, project_id)
    model = _metadata_model(admin)
    result = context.session.execute(
        sa.delete(model).where(model.volume_id == volume_id, model.key == key)
        .execution_options(synchronize_session=False))
    if result.rowcount == 0:
        raise exception.VolumeMetadataNotFound(volume_id=volume_id, key=key)


@db.reader
def admin_metadata(context, volume_id):
    """The admin metadata of a volume, read now (in the caller's
    transaction, after its lock)."""
    model = models.VolumeAdminMetadata
    return dict(context.session.execute(
        sa.select(model.key, model.value)
        .where(model.volume_id == volume_id)).all())


@db.writer
def admin_metadata_set(context, volume_id, values):
    _set_metadata(context, volume_id, values, False, True)


@db.writer
def admin_metadata_remove(context, volume_id, keys):
    model = models.VolumeAdminMetadata
    context.session.execute(
        sa.delete(model).where(model.volume_id == volume_id,
                               model.key.in_(list(keys)))
        .execution_options(synchronize_session=False))


def image_metadata_replace_in_transaction(context, volume_id, metadata):
    """The volume's image metadata becomes ``metadata``: every key it had
    goes (the caller holds the volume's row lock)."""
    model = models.VolumeGlanceMetadata
    context.session.execute(
        sa.delete(model).where(model.volume_id == volume_id)
        .execution_options(synchronize_session=False))
    context.session.add_all(model(volume_id=volume_id, key=k, value=v)
                            for k, v in metadata.items())
    context.session.flush()


@db.reader
def allocated_gb_by_pool(context, host):
    """{pool: GiB of volumes} on one backend, for thin provisioning."""
    rows = context.session.execute(
        sa.select(models.Volume.host, sa.func.sum(models.Volume.size))
        .where(sa.or_(models.Volume.host == host,
                      models.Volume.host.startswith(host + '#',
                                                    autoescape=True)))
        .group_by(models.Volume.host))
    return {h.partition('#')[2]: int(total) for h, total in rows}
