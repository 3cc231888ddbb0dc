"""The instances a usage report counts (``/os-simple-tenant-usage``):
those that ran at some time in a period, deleted ones included (their
rows stay, marked deleted, with the time they ended)."""

import sqlalchemy as sa

from tether.compute import exception
from tether.db.compute import models
from tether.db import keyset
from tether.db import session
from tether.objects.compute import instance as instance_obj

db = session.COMPUTE
Instance = models.Instance


@db.reader
def get_active_by_window(context, start, end, project_id=None, limit=None,
                         marker=None):
    """A page of the instances launched before ``end`` and not ended
    before ``start``, by project then UUID; ``marker`` is the UUID of the
    last instance of the page before (InvalidInput if there is no such
    instance)."""
    q = sa.select(Instance).where(
        sa.or_(Instance.terminated_at.is_(None),
               Instance.terminated_at > start),
        Instance.launched_at < end)
    if project_id is not None:
        q = q.where(Instance.project_id == project_id)
    rows = keyset.page(
        context.session, q, Instance, ('project_id', 'uuid'),
        ('asc', 'asc'), tiebreak='uuid', marker=marker,
        marker_query=sa.select(Instance), marker_key=Instance.uuid,
        not_found=lambda m: exception.InvalidInput(
            reason='marker [%s] not found' % m),
        limit=limit)
    return [instance_obj.Instance.from_db(row) for row in rows]
