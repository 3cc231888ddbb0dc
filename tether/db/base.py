"""What the models of both services are made of: one declarative base,
the timestamps of every row, and the clock the database layer reads."""

import functools

from oslo_utils import timeutils
import sqlalchemy as sa
from sqlalchemy import orm


def now():
    """The time the database layer records (naive UTC)."""
    return timeutils.utcnow()


class Base(orm.DeclarativeBase):
    """The base of every model.

    Each service's models derive from an abstract base of their own with a
    MetaData of their own (:func:`service_base`): the two databases are
    separate, and both have a ``services`` table. Class names stay unique
    across both (relationships name classes by name).
    """


def service_base(name):
    """An abstract base with the MetaData of one service's database."""
    return type(name, (Base,), {'__abstract__': True,
                                'metadata': sa.MetaData()})


class TimestampMixin:
    created_at = sa.Column(sa.DateTime, default=now, nullable=False)
    updated_at = sa.Column(sa.DateTime, onupdate=now)


def select_columns(model, names):
    """A select of the attributes ``names`` of ``model`` (its rows have
    them as attributes) rather than of the model: no ORM object is made
    of a row, which for a page of them costs several times the query."""
    return _select_columns(model, tuple(names))


@functools.cache
def _select_columns(model, names):
    # Built once, of the table's columns (labelled with the attribute's
    # name where the column has another): the ORM's compile of a select
    # of its attributes, at each request, cost a page of 100 rows about
    # a millisecond of CPU.
    columns = model.__mapper__.columns
    return sa.select(*(columns[name] if columns[name].key == name
                       else columns[name].label(name) for name in names))
