"""Generic volume groups: group types, groups, group snapshots."""

import sqlalchemy as sa
from sqlalchemy import orm

from tether.db import base
from tether.db.volume.models.common import _KeyValueMixin, Base


class GroupType(base.TimestampMixin, Base):
    """A kind of generic volume group (Cinder's group_types); a group
    holds its type (a type in use is not deleted)."""
    __tablename__ = 'group_types'

    id = sa.Column(sa.String(36), primary_key=True)
    name = sa.Column(sa.String(255), nullable=False, unique=True)
    description = sa.Column(sa.String(255))
    is_public = sa.Column(sa.Boolean, nullable=False, default=True)

    group_specs = orm.relationship(
        'GroupTypeSpec', lazy='selectin', cascade='all, delete-orphan',
        passive_deletes=True)


class GroupTypeSpec(_KeyValueMixin, Base):
    __tablename__ = 'group_type_specs'
    __table_args__ = (
        sa.UniqueConstraint('group_type_id', 'key',
                            name='uniq_group_type_specs0group_type_id0key'),
    )
    group_type_id = sa.Column(
        sa.String(36), sa.ForeignKey('group_types.id', ondelete='CASCADE'),
        nullable=False)


class Group(base.TimestampMixin, Base):
    """A generic volume group: volumes of the group's volume types on one
    backend, snapshotted together (Cinder's groups)."""
    __tablename__ = 'groups'
    __table_args__ = (
        # The order of a list (newest first, id breaking ties), of every
        # project's and of one project's.
        sa.Index('groups_created_idx', 'created_at', 'id'),
        sa.Index('groups_project_created_idx', 'project_id', 'created_at',
                 'id'),
    )

    id = sa.Column(sa.String(36), primary_key=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255))
    # The backend (host@backend#pool) its volumes are on.
    host = sa.Column(sa.String(255))
    availability_zone = sa.Column(sa.String(255))
    name = sa.Column(sa.String(255))
    description = sa.Column(sa.String(255))
    status = sa.Column(sa.String(255), nullable=False)
    group_type_id = sa.Column(
        sa.String(36), sa.ForeignKey('group_types.id', ondelete='RESTRICT'),
        nullable=False, index=True)
    # What it was made of (create-from-src), if anything.
    group_snapshot_id = sa.Column(sa.String(36))
    source_group_id = sa.Column(sa.String(36))

    volume_types = orm.relationship(
        'GroupVolumeTypeMapping', lazy='selectin',
        cascade='all, delete-orphan', passive_deletes=True,
        order_by='GroupVolumeTypeMapping.id')


class GroupVolumeTypeMapping(Base):
    """A volume type a group takes (a type a group takes is in use: it is
    not deleted)."""
    __tablename__ = 'group_volume_type_mapping'
    __table_args__ = (
        sa.UniqueConstraint(
            'group_id', 'volume_type_id',
            name='uniq_group_volume_type_mapping0group_id0volume_type_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    group_id = sa.Column(sa.String(36),
                         sa.ForeignKey('groups.id', ondelete='CASCADE'),
                         nullable=False)
    volume_type_id = sa.Column(
        sa.String(36), sa.ForeignKey('volume_types.id', ondelete='RESTRICT'),
        nullable=False, index=True)


class GroupSnapshot(base.TimestampMixin, Base):
    """Snapshots of every volume of a group taken together (Cinder's
    group_snapshots); a group with group snapshots is not deleted."""
    __tablename__ = 'group_snapshots'
    __table_args__ = (
        sa.Index('group_snapshots_created_idx', 'created_at', 'id'),
        sa.Index('group_snapshots_project_created_idx', 'project_id',
                 'created_at', 'id'),
    )

    id = sa.Column(sa.String(36), primary_key=True)
    group_id = sa.Column(sa.String(36),
                         sa.ForeignKey('groups.id', ondelete='RESTRICT'),
                         nullable=False, index=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255))
    name = sa.Column(sa.String(255))
    description = sa.Column(sa.String(255))
    status = sa.Column(sa.String(255), nullable=False)
    group_type_id = sa.Column(sa.String(36), nullable=False)
