"""Queries on user messages: a project's messages are its own (an
administrator sees every project's); expired ones are deleted by the
volume service. Messages leave this module as Message records."""

import sqlalchemy as sa

from tether.db import base
from tether.db import cas
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import message as message_obj
from tether.volume import exception

db = session.VOLUME
M = models.Message
SORT_KEYS = ('id', 'created_at', 'updated_at', 'expires_at', 'event_id',
             'message_level', 'resource_type', 'resource_uuid',
             'request_id')
FILTERS = ('resource_uuid', 'resource_type', 'event_id', 'request_id',
           'message_level')


def _query(project_id=None):
    q = sa.select(M)
    if project_id is not None:
        q = q.where(M.project_id == project_id)
    return q


@db.writer
def create(context, values):
    row = M(**values)
    context.session.add(row)
    context.session.flush()
    return message_obj.Message.from_db(row)


@db.reader
def get(context, message_id, project_id=None):
    """The message, or MessageNotFound (also another project's)."""
    row = context.session.scalars(
        _query(project_id).where(M.id == message_id)).first()
    if row is None:
        raise exception.MessageNotFound(message_id=message_id)
    return message_obj.Message.from_db(row)


def _filtered(project_id, filters):
    q = _query(project_id)
    for key, value in (filters or {}).items():
        q = q.where(getattr(M, key) == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None,
            limit=None, sort_keys=('created_at', 'id'),
            sort_dirs=('desc', 'desc'), offset=None):
    rows = keyset.page(
        context.session, _filtered(project_id, filters), M, sort_keys,
        sort_dirs, marker=marker, marker_query=_query(project_id),
        not_found=lambda m: exception.MessageNotFound(message_id=m),
        limit=limit, offset=offset)
    return [message_obj.Message.from_db(row) for row in rows]


@db.reader
def count(context, project_id=None, filters=None):
    q = _filtered(project_id, filters)
    return int(context.session.scalar(
        sa.select(sa.func.count()).select_from(q.subquery())))


@db.writer
def destroy(context, message_id, project_id=None):
    where = [M.id == message_id]
    if project_id is not None:
        where.append(M.project_id == project_id)
    if not cas.delete(context, M, where):
        raise exception.MessageNotFound(message_id=message_id)


@db.writer
def destroy_expired(context):
    """Delete the messages past their expiry; how many went."""
    return context.session.execute(
        sa.delete(M).where(M.expires_at < base.now())
        .execution_options(synchronize_session=False)).rowcount
