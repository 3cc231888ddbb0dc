"""Queries on snapshots and their metadata; each status change is
conditional. Snapshots leave this module as Snapshot objects."""

import sqlalchemy as sa

from tether.db import base
from tether.db import cas
from tether.db import key_values
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.objects import fields
from tether.objects.volume import snapshot as snapshot_obj
from tether.volume import exception

db = session.VOLUME
S = fields.SnapshotStatus
SORT_KEYS = ('id', 'name', 'description', 'status', 'volume_id',
             'created_at', 'updated_at', 'project_id')


def _query(project_id=None):
    q = sa.select(models.Snapshot)
    if project_id is not None:
        q = q.where(models.Snapshot.project_id == project_id)
    return q


def _get(context, snapshot_id, project_id=None):
    row = context.session.scalars(
        _query(project_id).where(models.Snapshot.id == snapshot_id)).first()
    if row is None:
        raise exception.SnapshotNotFound(snapshot_id=snapshot_id)
    return row


@db.reader
def get(context, snapshot_id, project_id=None):
    """The snapshot, or SnapshotNotFound (also when another project owns
    it)."""
    return snapshot_obj.Snapshot.from_db(
        _get(context, snapshot_id, project_id))


def create_in_transaction(context, values, metadata=None):
    row = models.Snapshot(**values)
    row.snapshot_metadata = [models.SnapshotMetadata(key=k, value=v)
                             for k, v in (metadata or {}).items()]
    context.session.add(row)
    context.session.flush()
    return snapshot_obj.Snapshot.from_db(row)


def _apply_filters(q, filters):
    for key, value in filters.items():
        if key == 'metadata':
            for mkey, mvalue in value.items():
                q = q.where(models.Snapshot.snapshot_metadata.any(
                    sa.and_(models.SnapshotMetadata.key == mkey,
                            models.SnapshotMetadata.value == mvalue)))
        else:
            q = q.where(getattr(models.Snapshot, key) == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None, limit=None,
            sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
            offset=None):
    """One page of snapshots, in a stable order (keyset pagination)."""
    q = _apply_filters(_query(project_id), filters or {})
    rows = keyset.page(
        context.session, q, models.Snapshot, sort_keys, sort_dirs,
        marker=marker, marker_query=_query(project_id),
        not_found=lambda m: exception.SnapshotMarkerNotFound(marker=m),
        limit=limit, offset=offset)
    return [snapshot_obj.Snapshot.from_db(row) for row in rows]


@db.reader
def count(context, project_id=None, filters=None):
    q = _apply_filters(
        sa.select(sa.func.count(models.Snapshot.id))
        .select_from(models.Snapshot), filters or {})
    if project_id is not None:
        q = q.where(models.Snapshot.project_id == project_id)
    return int(context.session.scalar(q))


def of_volume_in_transaction(context, volume_id):
    """The snapshots of a volume, oldest first (read in the caller's
    transaction)."""
    return [snapshot_obj.Snapshot.from_db(row)
            for row in context.session.scalars(
                sa.select(models.Snapshot)
                .where(models.Snapshot.volume_id == volume_id)
                .order_by(models.Snapshot.created_at, models.Snapshot.id))]


@db.reader
def of_volume(context, volume_id):
    return of_volume_in_transaction(context, volume_id)


@db.reader
def get_all_by_volume_host(context, host, statuses):
    """Snapshots in ``statuses`` of the volumes of one backend
    (``host@backend``, any pool)."""
    q = (sa.select(models.Snapshot)
         .join(models.Volume, models.Volume.id == models.Snapshot.volume_id)
         .where(sa.or_(models.Volume.host == host,
                       models.Volume.host.startswith(host + '#',
                                                     autoescape=True)),
                models.Snapshot.status.in_(statuses)))
    return [snapshot_obj.Snapshot.from_db(row)
            for row in context.session.scalars(q)]


def _conditional_update(context, snapshot_id, values, expected_statuses,
                        project_id=None):
    where = [models.Snapshot.id == snapshot_id]
    if expected_statuses is not None:
        where.append(models.Snapshot.status.in_(expected_statuses))
    if project_id is not None:
        where.append(models.Snapshot.project_id == project_id)
    return cas.update(context, models.Snapshot, where, values)


@db.writer
def conditional_update(context, snapshot_id, values, expected_statuses):
    """UPDATE … WHERE status IN expected; True if this caller won."""
    return _conditional_update(context, snapshot_id, values,
                               expected_statuses)


def transition_in_transaction(context, snapshot_id, values,
                              expected_statuses, project_id=None):
    """A conditional update that raises InvalidSnapshotStatus (naming the
    status it found) when it loses; the snapshot as it left it."""
    if not _conditional_update(context, snapshot_id, values,
                               expected_statuses, project_id):
        current = _get(context, snapshot_id, project_id)
        raise exception.InvalidSnapshotStatus(
            snapshot_id=snapshot_id, status=current.status,
            expected=' or '.join(expected_statuses))
    context.session.expire_all()
    return snapshot_obj.Snapshot.from_db(_get(context, snapshot_id))


@db.writer
def transition(context, snapshot_id, values, expected_statuses,
               project_id=None):
    return transition_in_transaction(context, snapshot_id, values,
                                     expected_statuses, project_id)


def update_in_transaction(context, snapshot_id, values):
    _conditional_update(context, snapshot_id, values, None)


@db.writer
def update(context, snapshot_id, values, project_id=None):
    if not _conditional_update(context, snapshot_id, values, None,
                               project_id):
        raise exception.SnapshotNotFound(snapshot_id=snapshot_id)
    context.session.expire_all()
    return snapshot_obj.Snapshot.from_db(_get(context, snapshot_id))


def fail_create_in_transaction(context, snapshot_id):
    """A create that failed: ``error``, no longer holding quota, if it
    was still ``creating`` and held it; True if so (the caller gives the
    quota back in the same transaction)."""
    return cas.update(
        context, models.Snapshot,
        [models.Snapshot.id == snapshot_id,
         models.Snapshot.status == S.CREATING,
         models.Snapshot.use_quota.is_(True)],
        {'status': S.ERROR, 'use_quota': False})


def destroy_in_transaction(context, snapshot_id, expected_statuses):
    """Delete the row if its status is still expected; True if deleted."""
    return cas.delete(context, models.Snapshot,
                      [models.Snapshot.id == snapshot_id,
                       models.Snapshot.status.in_(expected_statuses)])


# Metadata -----------------------------------------------------------------

@db.writer
def metadata_update(context, snapshot_id, metadata, delete_others,
                    project_id=None):
    """Merge (or replace, with delete_others) metadata; returns it all."""
    _get(context, snapshot_id, project_id)
    written = key_values.write(context.session, models.SnapshotMetadata,
                               'snapshot_id', snapshot_id, metadata,
                               delete_others)
    context.session.execute(
        sa.update(models.Snapshot).where(models.Snapshot.id == snapshot_id)
        .values(updated_at=base.now())
        .execution_options(synchronize_session=False))
    return written


@db.writer
def metadata_delete(context, snapshot_id, key, project_id=None):
    _get(context, snapshot_id, project_id)
    model = models.SnapshotMetadata
    result = context.session.execute(
        sa.delete(model).where(model.snapshot_id == snapshot_id,
                               model.key == key)
        .execution_options(synchronize_session=False))
    if result.rowcount == 0:
        raise exception.SnapshotMetadataNotFound(snapshot_id=snapshot_id,
                                                 key=key)
