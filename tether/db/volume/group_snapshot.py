"""Queries on group snapshots and the snapshots taken in them; each
status change is conditional. Group snapshots leave this module as
GroupSnapshot objects."""

import sqlalchemy as sa

from tether.db import base
from tether.db import cas
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import group as group_obj
from tether.objects.volume import snapshot as snapshot_obj
from tether.volume import group_exception as exception

db = session.VOLUME
GS = models.GroupSnapshot
SORT_KEYS = ('id', 'name', 'description', 'status', 'created_at',
             'updated_at', 'group_id', 'group_type_id', 'project_id')


def _query(project_id=None):
    q = sa.select(GS)
    if project_id is not None:
        q = q.where(GS.project_id == project_id)
    return q


def _get(context, group_snapshot_id, project_id=None):
    row = context.session.scalars(
        _query(project_id).where(GS.id == group_snapshot_id)).first()
    if row is None:
        raise exception.GroupSnapshotNotFound(
            group_snapshot_id=group_snapshot_id)
    return row


@db.reader
def get(context, group_snapshot_id, project_id=None):
    """The group snapshot, or GroupSnapshotNotFound (also when another
    project owns it)."""
    return group_obj.GroupSnapshot.from_db(
        _get(context, group_snapshot_id, project_id))


def create_in_transaction(context, values):
    row = GS(**values)
    context.session.add(row)
    context.session.flush()
    return group_obj.GroupSnapshot.from_db(row)


def _apply_filters(q, filters):
    for key, value in filters.items():
        q = q.where(getattr(GS, key) == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None, limit=None,
            sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
            offset=None):
    """One page of group snapshots, in a stable order (keyset
    pagination)."""
    q = _apply_filters(_query(project_id), filters or {})
    rows = keyset.page(
        context.session, q, GS, sort_keys, sort_dirs, marker=marker,
        marker_query=_query(project_id),
        not_found=lambda m: exception.GroupSnapshotMarkerNotFound(marker=m),
        limit=limit, offset=offset)
    return [group_obj.GroupSnapshot.from_db(row) for row in rows]


@db.reader
def count(context, project_id=None, filters=None):
    q = _apply_filters(sa.select(sa.func.count(GS.id)).select_from(GS),
                       filters or {})
    if project_id is not None:
        q = q.where(GS.project_id == project_id)
    return int(context.session.scalar(q))


def _conditional_update(context, group_snapshot_id, values,
                        expected_statuses):
    where = [GS.id == group_snapshot_id]
    if expected_statuses is not None:
        where.append(GS.status.in_(expected_statuses))
    return cas.update(context, GS, where,
                      dict({'updated_at': base.now()}, **values))


def transition_in_transaction(context, group_snapshot_id, values,
                              expected_statuses, project_id=None):
    """A conditional update that raises InvalidGroupSnapshotStatus
    (naming the status it found) when it loses."""
    current = _get(context, group_snapshot_id, project_id)
    if not _conditional_update(context, group_snapshot_id, values,
                               expected_statuses):
        context.session.expire_all()
        current = _get(context, group_snapshot_id)
        raise exception.InvalidGroupSnapshotStatus(
            group_snapshot_id=group_snapshot_id, status=current.status,
            expected=' or '.join(expected_statuses))
    context.session.expire_all()
    return group_obj.GroupSnapshot.from_db(_get(context, current.id))


@db.writer
def conditional_update(context, group_snapshot_id, values,
                       expected_statuses):
    return _conditional_update(context, group_snapshot_id, values,
                               expected_statuses)


@db.writer
def update(context, group_snapshot_id, values):
    if not _conditional_update(context, group_snapshot_id, values, None):
        raise exception.GroupSnapshotNotFound(
            group_snapshot_id=group_snapshot_id)


def destroy_in_transaction(context, group_snapshot_id, expected_statuses):
    return cas.delete(context, GS, [GS.id == group_snapshot_id,
                                    GS.status.in_(expected_statuses)])


def of_group_in_transaction(context, group_id):
    """The id of one group snapshot of the group, or None."""
    return context.session.scalar(
        sa.select(GS.id).where(GS.group_id == group_id).limit(1))


def snapshots_in_transaction(context, group_snapshot_id):
    """The snapshots taken in the group snapshot, by volume id."""
    s = models.Snapshot
    return [snapshot_obj.Snapshot.from_db(row)
            for row in context.session.scalars(
                sa.select(s).where(s.group_snapshot_id == group_snapshot_id)
                .order_by(s.volume_id))]


@db.reader
def snapshots(context, group_snapshot_id):
    return snapshots_in_transaction(context, group_snapshot_id)


@db.reader
def left_on_host(context, host, statuses):
    """Group snapshots in ``statuses`` of the groups of one backend
    (``host@backend``, any pool)."""
    g = models.Group
    q = (sa.select(GS).join(g, g.id == GS.group_id)
         .where(sa.or_(g.host == host,
                       g.host.startswith(host + '#', autoescape=True)),
                GS.status.in_(statuses)))
    return [group_obj.GroupSnapshot.from_db(row)
            for row in context.session.scalars(q)]
