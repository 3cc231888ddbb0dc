"""Conditional updates: a state change is one UPDATE (or DELETE) whose
WHERE names the states it may start from, and the row count says whether
this caller won. Callers run them in their writer transaction."""

import sqlalchemy as sa

from tether.db import session


def one_of(column, values):
    """``column IN values``, where a None among them matches NULL."""
    named = [v for v in values if v is not None]
    clause = column.in_(named)
    if None in values:
        clause = sa.or_(clause, column.is_(None))
    return clause


def update(context, model, where, values):
    """``UPDATE model SET values WHERE where...``; True if one row
    changed. ``updated_at`` is set by the column's own default.

    ``values`` are keyed by the model's attribute names. A Core UPDATE
    of the model's table on the transaction's connection: the ORM's bulk
    UPDATE did the same with more CPU, and left the session's objects as
    they were too (synchronize_session=False)."""
    result = session.core_connection(context).execute(
        sa.update(model.__table__).where(*where).values(
            {getattr(model, key): value for key, value in values.items()}))
    return result.rowcount == 1


def delete(context, model, where):
    """``DELETE FROM model WHERE where...``; True if one row went."""
    result = session.core_connection(context).execute(
        sa.delete(model.__table__).where(*where))
    return result.rowcount == 1
