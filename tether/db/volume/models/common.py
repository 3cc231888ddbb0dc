"""The declarative base of the volume database's models, and the
columns of its key/value tables."""

import sqlalchemy as sa

from tether.db import base

# The volume database's tables (a MetaData of their own).
Base = base.service_base('VolumeBase')


class _KeyValueMixin:
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    key = sa.Column(sa.String(255), nullable=False)
    value = sa.Column(sa.String(255))
