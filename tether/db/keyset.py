"""Keyset pagination: a page is the rows after the marker's row in a
stable order, found by comparing sort keys rather than by an offset."""

import sqlalchemy as sa
from sqlalchemy import orm


def _parts(model, sort_keys, sort_dirs):
    """The order as (expression, direction, value of a row) triples.

    A nullable key sorts its NULLs below every value on every database: a
    0/1 "has a value" flag first, then the value. Booleans compare as
    integers.
    """
    table = model.__table__
    parts = []
    for key, direction in zip(sort_keys, sort_dirs):
        column = getattr(model, key)
        if table.c[key].nullable:
            parts.append((sa.case((column.is_(None), 0), else_=1), direction,
                          lambda row, k=key: int(getattr(row, k) is not None)))
        if isinstance(table.c[key].type, sa.Boolean):
            parts.append((sa.cast(column, sa.Integer), direction,
                          lambda row, k=key: int(getattr(row, k))))
        else:
            parts.append((column, direction,
                          lambda row, k=key: getattr(row, k)))
    return parts


def paginate(query, model, sort_keys, sort_dirs, marker_row=None):
    """``query`` ordered by ``sort_keys`` (each ``'asc'`` or ``'desc'``)
    and, with ``marker_row``, cut to the rows strictly after it.

    The last key must make the order total (an id). oslo.db's
    paginate_query skips the comparison on a NULL marker value, which
    loses rows when sorting by a key some rows lack (a name); this does
    not.
    """
    parts = _parts(model, sort_keys, sort_dirs)
    for expr, direction, _value in parts:
        query = query.order_by(expr.asc() if direction == 'asc'
                               else expr.desc())
    if marker_row is None:
        return query
    after = []
    for i, (expr, direction, value) in enumerate(parts):
        marker_value = value(marker_row)
        if marker_value is None:
            # Equal flags: nothing sorts strictly before or after a NULL.
            continue
        same_before = []
        for prev_expr, _direction, prev_value in parts[:i]:
            prev = prev_value(marker_row)
            same_before.append(prev_expr.is_(None) if prev is None
                               else prev_expr == prev)
        beyond = (expr > marker_value if direction == 'asc'
                  else expr < marker_value)
        after.append(sa.and_(*same_before, beyond))
    query = query.where(sa.or_(*after))
    # The same bound on the first key alone, redundant but plain: an
    # index on it (after the filter's columns) then starts the scan at
    # the marker. Without it SQLite walks the index from the first row
    # and filters out every row before the marker, and a page deep in a
    # list of 100,000 volumes cost twice the first.
    expr, direction, value = parts[0]
    first = value(marker_row)
    if first is not None and isinstance(expr, orm.InstrumentedAttribute):
        query = query.where(expr <= first if direction == 'desc'
                            else expr >= first)
    return query


def with_tiebreak(sort_keys, sort_dirs, key='id'):
    """The keys and directions with ``key`` last (in the last direction),
    unless they name it already: the order is then total."""
    sort_keys, sort_dirs = list(sort_keys), list(sort_dirs)
    if key not in sort_keys:
        sort_keys.append(key)
        sort_dirs.append(sort_dirs[-1] if sort_dirs else 'desc')
    return sort_keys, sort_dirs


def page(session, query, model, sort_keys, sort_dirs, *, not_found,
         marker=None, marker_query=None, marker_key=None, limit=None,
         offset=None, tiebreak='id', columns=False):
    """The rows of one page of ``query`` (a select of ``model``), a list.

    Ordered by ``sort_keys`` and ``sort_dirs`` with ``tiebreak`` last
    (:func:`with_tiebreak`); with ``marker``, the rows after the row
    whose ``marker_key`` (default: the model's ``id``) is ``marker``
    among those of ``marker_query`` (default: every row of the model),
    and ``not_found(marker)`` raised when there is none; ``offset`` rows
    after the marker skipped, then at most ``limit``.

    With ``columns``, ``query`` selects columns of ``model`` (its sort
    keys among them) rather than the model: the page is then a list of
    rows, which cost a fraction of the ORM objects to read.
    """
    marker_row = None
    if marker is not None:
        if marker_query is None:
            marker_query = sa.select(model)
        if marker_key is None:
            marker_key = model.id
        # Only its sort keys are read: none of the relations that a
        # row of the list loads with it (a volume's metadata, admin
        # metadata, image metadata and attachments: four SELECTs).
        marker_row = session.scalars(
            marker_query.where(marker_key == marker)
            .options(orm.lazyload('*'))).first()
        if marker_row is None:
            raise not_found(marker)
    sort_keys, sort_dirs = with_tiebreak(sort_keys, sort_dirs, tiebreak)
    query = paginate(query, model, sort_keys, sort_dirs, marker_row)
    if limit is not None:
        query = query.limit(limit)
    if offset:
        query = query.offset(offset)
    if columns:
        # On the session's connection: the rows of a select of columns
        # need none of the ORM's loading, which cost more CPU than
        # SQLite's work for a page of 100.
        return session.connection().execute(query).all()
    return session.scalars(query).all()
