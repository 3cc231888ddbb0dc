"""Queries on generic volume groups and their members; each status
change, and each volume's joining or leaving, is conditional. Groups
leave this module as Group objects."""

import sqlalchemy as sa

from tether.db import base
from tether.db import cas
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import group as group_obj
from tether.objects.volume import volume as volume_obj
from tether.volume import group_exception as exception

db = session.VOLUME
G = models.Group
V = models.Volume
SORT_KEYS = ('id', 'name', 'description', 'status', 'created_at',
             'updated_at', 'availability_zone', 'group_type_id',
             'project_id')


def _query(project_id=None):
    q = sa.select(G)
    if project_id is not None:
        q = q.where(G.project_id == project_id)
    return q


def _get(context, group_id, project_id=None):
    row = context.session.scalars(
        _query(project_id).where(G.id == group_id)).first()
    if row is None:
        raise exception.GroupNotFound(group_id=group_id)
    return row


def get_in_transaction(context, group_id, project_id=None):
    return group_obj.Group.from_db(_get(context, group_id, project_id))


@db.reader
def get(context, group_id, project_id=None):
    """The group, or GroupNotFound (also when another project owns it)."""
    return get_in_transaction(context, group_id, project_id)


def create_in_transaction(context, values, volume_type_ids):
    row = G(**values)
    row.volume_types = [models.GroupVolumeTypeMapping(volume_type_id=t)
                        for t in volume_type_ids]
    context.session.add(row)
    context.session.flush()
    return group_obj.Group.from_db(row)


def _apply_filters(q, filters):
    for key, value in filters.items():
        q = q.where(getattr(G, key) == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None, limit=None,
            sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
            offset=None):
    """One page of groups, in a stable order (keyset pagination)."""
    q = _apply_filters(_query(project_id), filters or {})
    rows = keyset.page(
        context.session, q, G, sort_keys, sort_dirs, marker=marker,
        marker_query=_query(project_id),
        not_found=lambda m: exception.GroupMarkerNotFound(marker=m),
        limit=limit, offset=offset)
    return [group_obj.Group.from_db(row) for row in rows]


@db.reader
def count(context, project_id=None, filters=None):
    q = _apply_filters(sa.select(sa.func.count(G.id)).select_from(G),
                       filters or {})
    if project_id is not None:
        q = q.where(G.project_id == project_id)
    return int(context.session.scalar(q))


def _conditional_update(context, group_id, values, expected_statuses,
                        project_id=None, extra=()):
    where = [G.id == group_id]
    if expected_statuses is not None:
        where.append(G.status.in_(expected_statuses))
    if project_id is not None:
        where.append(G.project_id == project_id)
    return cas.update(context, G, where + list(extra),
                      dict({'updated_at': base.now()}, **values))


def hold_in_transaction(context, group_id, statuses):
    """Touch the group's row if it is in ``statuses`` (it stays held
    until the caller's transaction ends); True if it is."""
    return _conditional_update(context, group_id, {}, statuses)


def transition_in_transaction(context, group_id, values, expected_statuses,
                              project_id=None):
    """A conditional update that raises InvalidGroupStatus (naming the
    status it found) when it loses; the group as it left it. The row
    stays held until the caller's transaction ends."""
    if not _conditional_update(context, group_id, values, expected_statuses,
                               project_id):
        current = _get(context, group_id, project_id)
        raise exception.InvalidGroupStatus(
            group_id=group_id, status=current.status,
            expected=' or '.join(expected_statuses))
    context.session.expire_all()
    return group_obj.Group.from_db(_get(context, group_id))


@db.writer
def transition(context, group_id, values, expected_statuses,
               project_id=None):
    return transition_in_transaction(context, group_id, values,
                                     expected_statuses, project_id)


@db.writer
def conditional_update(context, group_id, values, expected_statuses):
    """UPDATE … WHERE status IN expected; True if this caller won."""
    return _conditional_update(context, group_id, values, expected_statuses)


@db.writer
def update(context, group_id, values, project_id=None):
    if not _conditional_update(context, group_id, values, None, project_id):
        raise exception.GroupNotFound(group_id=group_id)
    context.session.expire_all()
    return group_obj.Group.from_db(_get(context, group_id))


def destroy_in_transaction(context, group_id, expected_statuses):
    """Delete the row if its status is still expected; True if deleted."""
    return cas.delete(context, G, [G.id == group_id,
                                   G.status.in_(expected_statuses)])


# Members ------------------------------------------------------------------

def volumes_in_transaction(context, group_id):
    """The volumes of a group, by id (read in the caller's transaction)."""
    return [volume_obj.Volume.from_db(row) for row in context.session.scalars(
        sa.select(V).where(V.group_id == group_id).order_by(V.id))]


@db.reader
def volumes(context, group_id):
    return volumes_in_transaction(context, group_id)


@db.reader
def volume_ids(context, group_ids):
    """{group id: [its volumes' ids]} of some groups (a page's)."""
    out = {group_id: [] for group_id in group_ids}
    rows = context.session.execute(
        sa.select(V.group_id, V.id).where(V.group_id.in_(list(group_ids)))
        .order_by(V.id))
    for group_id, volume_id in rows:
        out[group_id].append(volume_id)
    return out


def count_volumes_in_transaction(context, group_id):
    return int(context.session.scalar(
        sa.select(sa.func.count(V.id)).where(V.group_id == group_id)))


def join_in_transaction(context, volume_id, group, statuses):
    """Put the volume in ``group``: one UPDATE whose WHERE holds every
    rule (in no group, of the group's project, of one of its volume
    types, on its backend, in ``statuses``); True if it joined."""
    where = [V.id == volume_id, V.group_id.is_(None),
             V.project_id == group.project_id,
             V.volume_type_id.in_(list(group.volume_type_ids)),
             V.status.in_(statuses)]
    backend = group.backend_host
    where.append(sa.or_(V.host == backend,
                        V.host.startswith(backend + '#', autoescape=True)))
    return cas.update(context, V, where, {'group_id': group.id,
                                          'updated_at': base.now()})


def leave_in_transaction(context, volume_id, group_id, statuses):
    """Take the volume out of the group if it is in it and in
    ``statuses``; True if it left."""
    return cas.update(context, V, [V.id == volume_id,
                                   V.group_id == group_id,
                                   V.status.in_(statuses)],
                      {'group_id': None, 'updated_at': base.now()})


def made_of_in_transaction(context, statuses, group_snapshot_id=None,
                           source_group_id=None):
    """The id of a group in ``statuses`` made of the group snapshot or of
    the group, or None."""
    q = sa.select(G.id).where(G.status.in_(statuses))
    if group_snapshot_id is not None:
        q = q.where(G.group_snapshot_id == group_snapshot_id)
    else:
        q = q.where(G.source_group_id == source_group_id)
    return context.session.scalar(q.limit(1))


def uses_volume_type_in_transaction(context, volume_type_id):
    m = models.GroupVolumeTypeMapping
    return context.session.scalar(
        sa.select(m.group_id).where(m.volume_type_id == volume_type_id)
        .limit(1))
