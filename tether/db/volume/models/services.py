"""Models of the volume service's services, quotas and their usage
and reservations, and user messages."""

import sqlalchemy as sa

from tether.db import base
from tether.db.volume.models.common import Base


class Service(base.TimestampMixin, Base):
    __tablename__ = 'services'
    __table_args__ = (
        sa.UniqueConstraint('host', 'binary',
                            name='uniq_services0host0binary'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    host = sa.Column(sa.String(255), nullable=False)
    binary = sa.Column(sa.String(255), nullable=False)
    topic = sa.Column(sa.String(255), nullable=False)
    availability_zone = sa.Column(sa.String(255))
    disabled = sa.Column(sa.Boolean, nullable=False, default=False)
    disabled_reason = sa.Column(sa.String(255))
    report_count = sa.Column(sa.Integer, nullable=False, default=0)
    heartbeat_at = sa.Column(sa.DateTime)
    rpc_current_version = sa.Column(sa.String(36))
    object_current_version = sa.Column(sa.String(36))
    # JSON: capacity and capabilities the backend last reported.
    capabilities = sa.Column(sa.Text)
    # An administrator froze the backend (os-services/freeze): its
    # volumes and snapshots are not managed until it is thawed.
    frozen = sa.Column(sa.Boolean, nullable=False, default=False,
                       server_default=sa.false())


class Quota(base.TimestampMixin, Base):
    __tablename__ = 'quotas'
    __table_args__ = (
        sa.UniqueConstraint('project_id', 'resource',
                            name='uniq_quotas0project_id0resource'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    # A resource, or one of a volume type (gigabytes_<type name>).
    resource = sa.Column(sa.String(300), nullable=False)
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
    resource = sa.Column(sa.String(300), nullable=False)
    hard_limit = sa.Column(sa.Integer, nullable=False)


class QuotaUsage(base.TimestampMixin, Base):
    __tablename__ = 'quota_usages'
    __table_args__ = (
        sa.UniqueConstraint('project_id', 'resource',
                            name='uniq_quota_usages0project_id0resource'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    resource = sa.Column(sa.String(300), nullable=False)
    in_use = sa.Column(sa.Integer, nullable=False, default=0)
    reserved = sa.Column(sa.Integer, nullable=False, default=0)


class Reservation(base.TimestampMixin, Base):
    __tablename__ = 'reservations'
    __table_args__ = (
        sa.Index('reservations_expire_idx', 'expire'),
        sa.Index('reservations_resource_id_idx', 'resource_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False, unique=True)
    usage_id = sa.Column(sa.Integer,
                         sa.ForeignKey('quota_usages.id', ondelete='CASCADE'),
                         nullable=False)
    project_id = sa.Column(sa.String(255), nullable=False)
    resource = sa.Column(sa.String(300), nullable=False)
    delta = sa.Column(sa.Integer, nullable=False)
    expire = sa.Column(sa.DateTime, nullable=False)
    # The volume the reservation is for, so a restarted manager can settle
    # the reservations of an operation it did not finish.
    resource_id = sa.Column(sa.String(36))


class Message(base.TimestampMixin, Base):
    """A user message (Cinder's /messages): what went wrong in an
    operation that had already answered 202, for the project to read
    until it expires."""
    __tablename__ = 'messages'
    __table_args__ = (
        sa.Index('messages_project_created_idx', 'project_id',
                 'created_at', 'id'),
        sa.Index('messages_created_idx', 'created_at', 'id'),
        sa.Index('messages_expires_idx', 'expires_at'),
    )

    id = sa.Column(sa.String(36), primary_key=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    request_id = sa.Column(sa.String(255))
    # VOLUME, VOLUME_SNAPSHOT ...
    resource_type = sa.Column(sa.String(36))
    resource_uuid = sa.Column(sa.String(255))
    # VOLUME_<resource type>_<action id>_<detail id>
    event_id = sa.Column(sa.String(255), nullable=False)
    message_level = sa.Column(sa.String(255), nullable=False)
    action_id = sa.Column(sa.String(10))
    detail_id = sa.Column(sa.String(10))
    expires_at = sa.Column(sa.DateTime, nullable=False)
