"""Queries on server groups and their members; rows leave this module
as ServerGroup objects. A group's create and delete change its project's
``server_groups`` usage in the same transaction; a group's members are
counted (its ``server_group_members`` quota) while its row is held."""

from oslo_serialization import jsonutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from tether.compute import server_group_exception as sg_exception
from tether.db.compute import models
from tether.db.compute import quota
from tether.db import session
from tether.objects.compute import server_group as server_group_obj

db = session.COMPUTE
Group = models.ServerGroup
Member = models.ServerGroupMember
GROUPS = 'server_groups'


def _members_of(context, group_ids):
    """{group id: (instance uuid, ...)}, oldest member first."""
    out = {group_id: [] for group_id in group_ids}
    if group_ids:
        rows = context.session.execute(
            sa.select(Member.group_id, Member.instance_uuid)
            .where(Member.group_id.in_(group_ids))
            .order_by(Member.id))
        for group_id, instance_uuid in rows:
            out[group_id].append(instance_uuid)
    return {group_id: tuple(uuids) for group_id, uuids in out.items()}


def _objs(context, rows):
    members = _members_of(context, [row.id for row in rows])
    return [server_group_obj.ServerGroup.from_db(row,
                                                 members=members[row.id])
            for row in rows]


def _row(context, group_uuid):
    row = context.session.scalars(
        sa.select(Group).where(Group.uuid == group_uuid)).first()
    if row is None:
        raise sg_exception.ServerGroupNotFound(group_uuid=group_uuid)
    return row


@db.reader
def get(context, group_uuid):
    """The group of that UUID (any project's), or ServerGroupNotFound."""
    return _objs(context, [_row(context, group_uuid)])[0]


@db.reader
def get_all(context, project_id=None, limit=None, offset=0):
    """A page of the groups of a project (None: every project's), in the
    order they were made."""
    q = sa.select(Group).order_by(Group.id)
    if project_id is not None:
        q = q.where(Group.project_id == project_id)
    q = q.offset(offset)
    if limit is not None:
        q = q.limit(limit)
    return _objs(context, list(context.session.scalars(q)))


@db.reader
def get_by_instance(context, instance_uuid):
    """The UUIDs of the groups a server is in (one at most)."""
    return list(context.session.scalars(
        sa.select(Group.uuid).join(Member, Member.group_id == Group.id)
        .where(Member.instance_uuid == instance_uuid)))


@quota.retry_on_duplicate
@db.writer
def create(context, values, limit):
    """Insert a group counted against its project's ``server_groups``
    quota (``limit``, -1: none): ServerGroupLimitExceeded at the
    limit."""
    if quota.consume(context, {GROUPS: 1}, {GROUPS: limit},
                     values['project_id']):
        raise sg_exception.ServerGroupLimitExceeded()
    row = Group(uuid=uuidutils.generate_uuid(),
                rules=jsonutils.dumps(values.pop('rules', None) or {}),
                **values)
    context.session.add(row)
    context.session.flush()
    return _objs(context, [row])[0]


@db.writer
def destroy(context, group_uuid):
    """Delete a group; its servers stay and leave it."""
    row = _row(context, group_uuid)
    context.session.execute(sa.delete(Member).where(Member.group_id ==
                                                    row.id))
    result = context.session.execute(sa.delete(Group).where(Group.id ==
                                                            row.id))
    if result.rowcount == 0:
        raise sg_exception.ServerGroupNotFound(group_uuid=group_uuid)
    quota.release(context, {GROUPS: 1}, row.project_id)


# In the transaction of a server's create or delete ----------------------

def lock(context, group_uuid):
    """The group's row, locked until the transaction ends, so that the
    members placed by one create are those the next one counts (on
    SQLite the writer lock serializes them anyway); ServerGroupNotFound
    if it was deleted meanwhile."""
    row = context.session.execute(
        sa.select(Group.id).where(Group.uuid == group_uuid)
        .with_for_update()).first()
    if row is None:
        raise sg_exception.ServerGroupNotFound(group_uuid=group_uuid)
    return row.id


def hosts_of_members(context, group_id):
    """{host: how many of the group's live servers it runs}."""
    rows = context.session.execute(
        sa.select(models.Instance.host, sa.func.count())
        .join(Member, Member.instance_uuid == models.Instance.uuid)
        .where(Member.group_id == group_id,
               models.Instance.deleted.is_(False),
               models.Instance.host.is_not(None))
        .group_by(models.Instance.host))
    return {host: count for host, count in rows}


def add_member(context, group_id, group_uuid, instance_uuid, limit):
    """Add the server to the group, if the group's live members stay
    within its ``server_group_members`` quota (``limit``, -1: none;
    ServerGroupMemberLimitExceeded when it is full). The caller holds
    the group's row (:func:`lock`), so the count is the one the next
    create sees."""
    if limit >= 0:
        members = context.session.scalar(
            sa.select(sa.func.count())
            .select_from(Member)
            .join(models.Instance,
                  models.Instance.uuid == Member.instance_uuid)
            .where(Member.group_id == group_id,
                   models.Instance.deleted.is_(False)))
        if members + 1 > limit:
            raise sg_exception.ServerGroupMemberLimitExceeded(
                group_uuid=group_uuid)
    context.session.add(Member(group_id=group_id,
                               instance_uuid=instance_uuid))


def remove_instance(context, instance_uuid):
    """A deleted server leaves its groups."""
    context.session.execute(
        sa.delete(Member).where(Member.instance_uuid == instance_uuid)
        .execution_options(synchronize_session=False))
