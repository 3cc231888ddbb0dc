"""Compute quotas in the database: the limits set for projects, users
of a project and quota classes, and the usage counters of the counted
resources (instances, cores and ram per project and per user of it;
key pairs per user). Each change of a counter is one conditional UPDATE
in the caller's transaction."""

from oslo_db import api as oslo_db_api
from oslo_db import exception as db_exc
import sqlalchemy as sa

from tether.db import base
from tether.db.compute import models
from tether.db import session

db = session.COMPUTE
Usage = models.QuotaUsage
Quota = models.Quota
QuotaClass = models.QuotaClass


def is_duplicate(exc):
    """Two transactions both made one counter or limit row: the loser
    runs again (``retry_on_duplicate``)."""
    return isinstance(exc, db_exc.DBDuplicateEntry)


def retry_on_duplicate(fn):
    return oslo_db_api.wrap_db_retry(
        max_retries=5, retry_on_deadlock=True,
        exception_checker=is_duplicate)(fn)


# Usage counters --------------------------------------------------------------

def _scope(project_id, user_id):
    return (Usage.project_id == (project_id or ''),
            Usage.user_id == (user_id or ''))


def _usage_id(context, resource, project_id, user_id):
    """The id of the counter of ``resource`` for the scope, made at 0
    the first time (of two transactions that make it, the second fails
    on the unique constraint: see ``retry_on_duplicate``)."""
    q = sa.select(Usage.id).where(Usage.resource == resource,
                                  *_scope(project_id, user_id))
    usage_id = context.session.scalar(q)
    if usage_id is None:
        context.session.add(Usage(resource=resource,
                                  project_id=project_id or '',
                                  user_id=user_id or '', in_use=0))
        context.session.flush()
        usage_id = context.session.scalar(q)
    return usage_id


def consume(context, deltas, limits, project_id='', user_id=''):
    """Add each of ``deltas`` ({resource: n}) to the counters of the
    scope (a project, a user of it, or a user alone) where that stays
    within ``limits`` ({resource: limit}; -1 or missing: none).

    Each is one ``UPDATE ... SET in_use = in_use + n WHERE in_use + n
    <= limit``: of two requests racing for the last units, one wins.
    Returns ``{resource: in_use}`` of those that would pass their limit
    (nothing is added to them): the caller raises, and its transaction
    takes back what was added to the others.
    """
    over = {}
    now = base.now()
    for resource in sorted(deltas):
        delta = deltas[resource]
        if not delta:
            continue
        usage_id = _usage_id(context, resource, project_id, user_id)
        q = sa.update(Usage).where(Usage.id == usage_id)
        limit = limits.get(resource, -1)
        if delta > 0 and limit >= 0:
            q = q.where(Usage.in_use + delta <= limit)
        result = context.session.execute(
            q.values(in_use=Usage.in_use + delta, updated_at=now)
            .execution_options(synchronize_session=False))
        if result.rowcount != 1:
            over[resource] = context.session.scalar(
                sa.select(Usage.in_use).where(Usage.id == usage_id))
    return over


def release(context, deltas, project_id='', user_id=''):
    """Take ``deltas`` ({resource: n}) off the counters of the scope
    (never below 0)."""
    now = base.now()
    for resource, delta in deltas.items():
        if not delta:
            continue
        context.session.execute(
            sa.update(Usage)
            .where(Usage.resource == resource, *_scope(project_id, user_id))
            .values(in_use=sa.case((Usage.in_use < delta, 0),
                                   else_=Usage.in_use - delta),
                    updated_at=now)
            .execution_options(synchronize_session=False))


def in_use(context, resources, project_id='', user_id=''):
    """{resource: in use} of the scope (0 where it never had any)."""
    with db.reading(context):
        rows = context.session.execute(
            sa.select(Usage.resource, Usage.in_use)
            .where(Usage.resource.in_(list(resources)),
                   *_scope(project_id, user_id))).all()
    found = dict(rows)
    return {r: found.get(r, 0) for r in resources}


# Limits ---------------------------------------------------------------------

@db.reader
def get_limits(context, project_id, user_id=''):
    """The limits set for a project (``user_id`` '') or for one user of
    it: {resource: limit}, without defaults."""
    return dict(context.session.execute(
        sa.select(Quota.resource, Quota.hard_limit)
        .where(Quota.project_id == project_id,
               Quota.user_id == (user_id or ''))).all())


@db.reader
def get_user_limits(context, project_id):
    """{user_id: {resource: limit}} of every user of the project that
    has limits of its own."""
    out = {}
    for user_id, resource, limit in context.session.execute(
            sa.select(Quota.user_id, Quota.resource, Quota.hard_limit)
            .where(Quota.project_id == project_id, Quota.user_id != '')):
        out.setdefault(user_id, {})[resource] = limit
    return out


def _upsert(context, model, where, values, hard_limit):
    now = base.now()
    result = context.session.execute(
        sa.update(model).where(*where)
        .values(hard_limit=hard_limit, updated_at=now)
        .execution_options(synchronize_session=False))
    if result.rowcount == 0:
        with context.session.begin_nested():
            context.session.add(model(hard_limit=hard_limit, **values))


@retry_on_duplicate
@db.writer
def set_limits(context, project_id, limits, user_id='', check=None):
    """Set ``limits`` ({resource: limit}) of a project or of one user of
    it, in one transaction (``limits`` may hold, under the key None,
    limits for the project beside a user's); ``check(context)``, if
    given, runs first in the same transaction (and may raise: nothing is
    set then)."""
    if check is not None:
        check(context)
    limits = dict(limits)
    scopes = [(limits.pop(None, {}), ''), (limits, user_id or '')]
    for scope_limits, scope_user in scopes:
        for resource, limit in scope_limits.items():
            _upsert(context, Quota,
                    (Quota.project_id == project_id,
                     Quota.user_id == scope_user,
                     Quota.resource == resource),
                    {'project_id': project_id, 'user_id': scope_user,
                     'resource': resource}, limit)


@db.writer
def delete_limits(context, project_id, user_id=None):
    """Forget the limits of a project and of all its users, or (with
    ``user_id``) of one user of it."""
    q = sa.delete(Quota).where(Quota.project_id == project_id)
    if user_id is not None:
        q = q.where(Quota.user_id == user_id)
    context.session.execute(q)


@db.reader
def get_class_limits(context, class_name):
    return dict(context.session.execute(
        sa.select(QuotaClass.resource, QuotaClass.hard_limit)
        .where(QuotaClass.class_name == class_name)).all())


@retry_on_duplicate
@db.writer
def set_class_limits(context, class_name, limits):
    for resource, limit in limits.items():
        _upsert(context, QuotaClass,
                (QuotaClass.class_name == class_name,
                 QuotaClass.resource == resource),
                {'class_name': class_name, 'resource': resource}, limit)
