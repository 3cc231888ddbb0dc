"""Conditional updates: a state change is one UPDATE (or DELETE) whose
WHERE names the states it may start from, and the row count says whether
this caller won. Callers run them in their writer transaction."""

import sqlalchemy as sa


def one_of(column, values):
    """``column IN values``, where a None among them matches NULL."""
    named = [v for v in values if v is not None]
    clause = column.in_(named)
    if None in values:
        clause = sa.or_(clause, column.is_(None))
    return clause


def update(context, model, where, values):
    """``UPDATE model SET values WHERE where...``; True if one row
    changed. ``updated_at`` is set by the column's own default."""
    result = context.session.execute(
        sa.update(model).where(*where).values(**values)
        .execution_options(synchronize_session=False))
    return result.rowcount == 1


def delete(context, model, where):
    """``DELETE FROM model WHERE where...``; True if one row went."""
    result = context.session.execute(
        sa.delete(model).where(*where)
        .execution_options(synchronize_session=False))
    return result.rowcount == 1
