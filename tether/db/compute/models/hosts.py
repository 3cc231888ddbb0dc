"""Models of the compute services (hosts), their aggregates, and
server groups."""

import sqlalchemy as sa

from tether.db import base
from tether.db.compute.models.common import Base


class ComputeService(base.TimestampMixin, Base):
    """A compute host's service record (tether-compute) and its node."""
    __tablename__ = 'services'
    __table_args__ = (
        sa.UniqueConstraint('host', 'binary',
                            name='uniq_services0host0binary'),
        sa.UniqueConstraint('uuid', name='uniq_services0uuid'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    host = sa.Column(sa.String(255), nullable=False)
    binary = sa.Column(sa.String(255), nullable=False)
    topic = sa.Column(sa.String(255))
    availability_zone = sa.Column(sa.String(255))
    disabled = sa.Column(sa.Boolean, nullable=False, default=False)
    disabled_reason = sa.Column(sa.String(255))
    forced_down = sa.Column(sa.Boolean, nullable=False, default=False)
    report_count = sa.Column(sa.Integer, nullable=False, default=0)
    heartbeat_at = sa.Column(sa.DateTime)
    # The service version (an integer that grows with what the service
    # can do), read by the API before it asks for something new.
    version = sa.Column(sa.Integer, nullable=False, default=0)
    rpc_current_version = sa.Column(sa.String(36))
    # The hypervisor of a tether-compute: its node id (uuid above), name,
    # capacity and traits, as JSON reported with each heartbeat.
    hypervisor_hostname = sa.Column(sa.String(255))
    host_ip = sa.Column(sa.String(64))
    stats = sa.Column(sa.Text)
    traits = sa.Column(sa.Text)


class Aggregate(base.TimestampMixin, Base):
    """A host aggregate (``/os-aggregates``): a named set of compute
    hosts with metadata; its ``availability_zone`` metadata puts its
    hosts in that zone."""
    __tablename__ = 'aggregates'
    __table_args__ = (
        sa.UniqueConstraint('uuid', name='uniq_aggregates0uuid'),
        # Of two creates (or renames) to one name, the second loses here.
        sa.UniqueConstraint('name', name='uniq_aggregates0name'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)


class AggregateHost(base.TimestampMixin, Base):
    __tablename__ = 'aggregate_hosts'
    __table_args__ = (
        sa.UniqueConstraint('aggregate_id', 'host',
                            name='uniq_aggregate_hosts0aggregate_id0host'),
        sa.Index('aggregate_hosts_host_idx', 'host'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    aggregate_id = sa.Column(sa.Integer,
                             sa.ForeignKey('aggregates.id',
                                           ondelete='CASCADE'),
                             nullable=False)
    host = sa.Column(sa.String(255), nullable=False)


class AggregateMetadata(base.TimestampMixin, Base):
    __tablename__ = 'aggregate_metadata'
    __table_args__ = (
        sa.UniqueConstraint('aggregate_id', 'key',
                            name='uniq_aggregate_metadata0aggregate_id0key'),
        sa.Index('aggregate_metadata_key_idx', 'key'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    aggregate_id = sa.Column(sa.Integer,
                             sa.ForeignKey('aggregates.id',
                                           ondelete='CASCADE'),
                             nullable=False)
    key = sa.Column(sa.String(255), nullable=False)
    value = sa.Column(sa.String(255), nullable=False)


class ServerGroup(base.TimestampMixin, Base):
    """A project's server group (``/os-server-groups``, Nova's instance
    group): a placement policy its members are scheduled by."""
    __tablename__ = 'server_groups'
    __table_args__ = (
        sa.UniqueConstraint('uuid', name='uniq_server_groups0uuid'),
        sa.Index('server_groups_project_id_idx', 'project_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255), nullable=False)
    # affinity, anti-affinity, soft-affinity or soft-anti-affinity
    # (fields.ServerGroupPolicy).
    policy = sa.Column(sa.String(32), nullable=False)
    # JSON object of the policy's rules ({"max_server_per_host": n}).
    rules = sa.Column(sa.Text)


class ServerGroupMember(base.TimestampMixin, Base):
    """A live server of a server group; the row goes when the server is
    deleted, or with its group."""
    __tablename__ = 'server_group_members'
    __table_args__ = (
        # A server is in one group at most.
        sa.UniqueConstraint('instance_uuid',
                            name='uniq_server_group_members0instance_uuid'),
        sa.Index('server_group_members_group_id_idx', 'group_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    group_id = sa.Column(sa.Integer,
                         sa.ForeignKey('server_groups.id', ondelete='CASCADE'),
                         nullable=False)
    instance_uuid = sa.Column(sa.String(36), nullable=False)
