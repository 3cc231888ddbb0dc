"""Usage counters of the compute quotas that are counted, not computed
(``key_pairs`` per user); each change is one conditional UPDATE in the
caller's transaction."""

import sqlalchemy as sa

from tether.db import base
from tether.db.compute import models

Usage = models.QuotaUsage


def _usage_id(context, resource, scope):
    """The id of the counter of ``resource`` for ``scope``, made at 0 the
    first time. Two transactions that both make it: the second fails on
    the unique constraint, and the caller retries (``oslo.db``'s
    DBDuplicateEntry, see tether.db.compute.key_pair)."""
    q = sa.select(Usage.id).where(Usage.resource == resource,
                                  Usage.scope == scope)
    usage_id = context.session.scalar(q)
    if usage_id is None:
        context.session.add(Usage(resource=resource, scope=scope, in_use=0))
        context.session.flush()
        usage_id = context.session.scalar(q)
    return usage_id


def consume(context, resource, scope, limit, over_quota):
    """Count one more ``resource`` for ``scope`` if that stays within
    ``limit`` (-1: no limit), else raise ``over_quota()``.

    One ``UPDATE ... SET in_use = in_use + 1 WHERE in_use + 1 <= limit``:
    of two creates racing for the last unit, one wins.
    """
    usage_id = _usage_id(context, resource, scope)
    q = sa.update(Usage).where(Usage.id == usage_id)
    if limit >= 0:
        q = q.where(Usage.in_use + 1 <= limit)
    result = context.session.execute(
        q.values(in_use=Usage.in_use + 1, updated_at=base.now())
        .execution_options(synchronize_session=False))
    if result.rowcount != 1:
        raise over_quota()


def release(context, resource, scope):
    """Count one ``resource`` less for ``scope`` (never below 0)."""
    context.session.execute(
        sa.update(Usage)
        .where(Usage.resource == resource, Usage.scope == scope,
               Usage.in_use > 0)
        .values(in_use=Usage.in_use - 1, updated_at=base.now())
        .execution_options(synchronize_session=False))


def in_use(context, resource, scope):
    """How many ``resource`` ``scope`` has (0 if it never had any)."""
    return context.session.scalar(
        sa.select(Usage.in_use).where(Usage.resource == resource,
                                      Usage.scope == scope)) or 0


def drop(context, resource, scope):
    """Forget the counter of ``resource`` for ``scope`` (a scope that is
    gone: a deleted server group's members)."""
    context.session.execute(
        sa.delete(Usage)
        .where(Usage.resource == resource, Usage.scope == scope)
        .execution_options(synchronize_session=False))
