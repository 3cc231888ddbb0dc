"""Models of the compute quotas: limits, quota classes and usage."""

import sqlalchemy as sa

from tether.db import base
from tether.db.compute.models.common import Base


class Quota(base.TimestampMixin, Base):
    """A limit set for a project (``user_id`` '') or for one user of it
    (``/os-quota-sets/{project_id}[?user_id=]``); without a row, the
    default (tether.compute.quota) applies."""
    __tablename__ = 'quotas'
    __table_args__ = (
        sa.UniqueConstraint('project_id', 'user_id', 'resource',
                            name='uniq_quotas0project_id0user_id0resource'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255), nullable=False, default='',
                        server_default='')
    resource = sa.Column(sa.String(255), nullable=False)
    hard_limit = sa.Column(sa.Integer, nullable=False)


class QuotaClass(base.TimestampMixin, Base):
    """A limit of a quota class (``/os-quota-class-sets/{id}``); the
    ``default`` class's are the defaults of every project."""
    __tablename__ = 'quota_classes'
    __table_args__ = (
        sa.UniqueConstraint('class_name', 'resource',
                            name='uniq_quota_classes0class_name0resource'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    class_name = sa.Column(sa.String(255), nullable=False)
    resource = sa.Column(sa.String(255), nullable=False)
    hard_limit = sa.Column(sa.Integer, nullable=False)


class QuotaUsage(base.TimestampMixin, Base):
    """What a project, one user of a project, or a user alone has of a
    counted resource (instances, cores and ram per project and per user
    of it; key pairs per user): a create adds to it within the limit in
    one conditional UPDATE, in the transaction that inserts the row it
    counts, and a delete takes it back in the transaction that marks the
    row deleted."""
    __tablename__ = 'quota_usages'
    __table_args__ = (
        sa.UniqueConstraint(
            'resource', 'project_id', 'user_id',
            name='uniq_quota_usages0resource0project_id0user_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    resource = sa.Column(sa.String(255), nullable=False)
    # '' where the counter is not of one project (key pairs) or not of
    # one user (a project's whole usage).
    project_id = sa.Column(sa.String(255), nullable=False, default='',
                           server_default='')
    user_id = sa.Column(sa.String(255), nullable=False, default='',
                        server_default='')
    in_use = sa.Column(sa.Integer, nullable=False, default=0)
