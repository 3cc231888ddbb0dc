"""SQLAlchemy models of the compute service database."""

import sqlalchemy as sa

from tether.db import base

# The compute database's tables (a MetaData of their own).
Base = base.service_base('ComputeBase')


class Flavor(base.TimestampMixin, Base):
    __tablename__ = 'flavors'
    __table_args__ = (
        sa.UniqueConstraint('flavorid', name='uniq_flavors0flavorid'),
        sa.UniqueConstraint('name', name='uniq_flavors0name'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    flavorid = sa.Column(sa.String(255), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    memory_mb = sa.Column(sa.Integer, nullable=False)
    vcpus = sa.Column(sa.Integer, nullable=False)
    root_gb = sa.Column(sa.Integer, nullable=False, default=0)
    ephemeral_gb = sa.Column(sa.Integer, nullable=False, default=0)
    swap = sa.Column(sa.Integer, nullable=False, default=0)
    rxtx_factor = sa.Column(sa.Float, nullable=False, default=1.0)
    is_public = sa.Column(sa.Boolean, nullable=False, default=True)
    disabled = sa.Column(sa.Boolean, nullable=False, default=False)
    description = sa.Column(sa.Text)
    # JSON object of the flavor's extra specs.
    extra_specs = sa.Column(sa.Text)


class FlavorProject(base.TimestampMixin, Base):
    """A project given access to a private flavor (Nova's
    ``flavor_projects``); the flavor's rows go with it."""
    __tablename__ = 'flavor_projects'
    __table_args__ = (
        # Of two adds of one project, the second loses here (409).
        sa.UniqueConstraint('flavor_id', 'project_id',
                            name='uniq_flavor_projects0flavor_id0project_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    flavor_id = sa.Column(sa.Integer,
                          sa.ForeignKey('flavors.id', ondelete='CASCADE'),
                          nullable=False)
    project_id = sa.Column(sa.String(255), nullable=False)


class KeyPair(base.TimestampMixin, Base):
    """A user's key pair (``/os-keypairs``): names are per user, as in
    Nova; a key pair belongs to no project."""
    __tablename__ = 'key_pairs'
    __table_args__ = (
        # Of two creates of one name, the second loses here (409).
        sa.UniqueConstraint('user_id', 'name',
                            name='uniq_key_pairs0user_id0name'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    name = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255), nullable=False)
    fingerprint = sa.Column(sa.String(255), nullable=False)
    public_key = sa.Column(sa.Text, nullable=False)
    # ssh or x509 (fields.KeyPairType).
    type = sa.Column(sa.String(16), nullable=False, default='ssh',
                     server_default='ssh')


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


class Instance(base.TimestampMixin, Base):
    __tablename__ = 'instances'
    __table_args__ = (
        sa.Index('instances_project_created_idx', 'project_id', 'deleted',
                 'created_at'),
        sa.Index('instances_host_deleted_idx', 'host', 'deleted'),
    )

    uuid = sa.Column(sa.String(36), primary_key=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255), nullable=False)
    display_name = sa.Column(sa.String(255))
    display_description = sa.Column(sa.Text)
    hostname = sa.Column(sa.String(255))
    host = sa.Column(sa.String(255))
    node = sa.Column(sa.String(255))
    availability_zone = sa.Column(sa.String(255))
    # The zone the create asked for; None when any would do.
    pinned_availability_zone = sa.Column(sa.String(255))
    # The flavor when the server was made (a flavor may be deleted later):
    # JSON of its id, name, memory_mb, vcpus, root_gb, ephemeral_gb, swap,
    # extra_specs. memory_mb and vcpus are also columns, for host claims.
    flavor = sa.Column(sa.Text, nullable=False)
    # The image the server was made of (Nova's image_ref): its root disk
    # is a local disk made of it; '' for a server that boots from a
    # volume (also one the compute host made of an image).
    image_ref = sa.Column(sa.String(255), nullable=False, default='',
                          server_default='')
    memory_mb = sa.Column(sa.Integer, nullable=False)
    vcpus = sa.Column(sa.Integer, nullable=False)
    vm_state = sa.Column(sa.String(255), nullable=False)
    task_state = sa.Column(sa.String(255))
    power_state = sa.Column(sa.Integer, nullable=False, default=0)
    launched_at = sa.Column(sa.DateTime)
    terminated_at = sa.Column(sa.DateTime)
    locked = sa.Column(sa.Boolean, nullable=False, default=False)
    # Who locked the server (owner or admin), and why (2.73).
    locked_by = sa.Column(sa.String(5))
    locked_reason = sa.Column(sa.String(255))
    # As the request gave them (migration 0009).
    user_data = sa.Column(sa.Text)
    access_ip_v4 = sa.Column(sa.String(39))
    access_ip_v6 = sa.Column(sa.String(39))
    # "True" if the server has a config drive, else "" (Nova's values;
    # migration 0010).
    config_drive = sa.Column(sa.String(255), nullable=False, default='',
                             server_default='')
    metadata_ = sa.Column('metadata', sa.Text)
    # The key pair of the create: its name and its public key then.
    key_name = sa.Column(sa.String(255))
    key_data = sa.Column(sa.Text)
    # JSON {code, message, details, created} of the last failure.
    fault = sa.Column(sa.Text)
    deleted = sa.Column(sa.Boolean, nullable=False, default=False)
    deleted_at = sa.Column(sa.DateTime)


class BlockDeviceMapping(base.TimestampMixin, Base):
    """A disk of an instance, as Nova records it: a volume (the row exists
    while it is attached), or the local root disk made of an image."""
    __tablename__ = 'block_device_mapping'
    __table_args__ = (
        # One attachment of a volume per instance: a second attach of the
        # same volume loses on this constraint (409).
        sa.UniqueConstraint('instance_uuid', 'volume_id',
                            name='uniq_bdm0instance_uuid0volume_id'),
        sa.Index('block_device_mapping_volume_id_idx', 'volume_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False, unique=True)
    instance_uuid = sa.Column(sa.String(36),
                              sa.ForeignKey('instances.uuid',
                                            ondelete='CASCADE'),
                              nullable=False)
    # What the disk is made of and where it lives (Nova's names):
    # volume -> volume (a volume the user gave), image, snapshot or
    # blank -> volume (a volume the compute host makes of the image, of
    # the snapshot, or empty), image -> local (the local root disk of a
    # server booted from an image).
    source_type = sa.Column(sa.String(255), nullable=False,
                            default='volume', server_default='volume')
    destination_type = sa.Column(sa.String(255), nullable=False,
                                 default='volume', server_default='volume')
    image_id = sa.Column(sa.String(36))
    # None until the compute host made the volume of an image, a
    # snapshot or nothing; always None for a local disk.
    volume_id = sa.Column(sa.String(36))
    attachment_id = sa.Column(sa.String(36))
    device_name = sa.Column(sa.String(255))
    boot_index = sa.Column(sa.Integer)
    delete_on_termination = sa.Column(sa.Boolean, nullable=False,
                                      default=False)
    tag = sa.Column(sa.String(255))
    volume_size = sa.Column(sa.Integer)
    # The volume snapshot a volume is made of (source_type snapshot).
    snapshot_id = sa.Column(sa.String(36))
    # attaching -> attached -> detaching; the row goes when detached.
    status = sa.Column(sa.String(255), nullable=False)
    # JSON from the volume service; admin-only, never logged.
    connection_info = sa.Column(sa.Text)


class ShareMapping(base.TimestampMixin, Base):
    """A Manila share attached to an instance (``/servers/{id}/shares``),
    from the attach request until the host revoked its access. No soft
    delete: a detached share's row goes."""
    __tablename__ = 'share_mapping'
    __table_args__ = (
        # A share, and a tag, at most once per instance: of two concurrent
        # attaches, the second loses on these (409).
        sa.UniqueConstraint('instance_uuid', 'share_id',
                            name='uniq_share_mapping0instance_uuid0share_id'),
        sa.UniqueConstraint('instance_uuid', 'tag',
                            name='uniq_share_mapping0instance_uuid0tag'),
        sa.Index('share_mapping_share_id_idx', 'share_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False, unique=True)
    instance_uuid = sa.Column(sa.String(36),
                              sa.ForeignKey('instances.uuid',
                                            ondelete='CASCADE'),
                              nullable=False)
    share_id = sa.Column(sa.String(36), nullable=False)
    # attaching -> inactive <-> active; detaching; error
    # (fields.ShareMappingStatus).
    status = sa.Column(sa.String(32), nullable=False)
    # What the guest mounts: as long as the longest tag the API accepts.
    tag = sa.Column(sa.String(64), nullable=False)
    # Manila's export location; admin-only, never logged.
    export_location = sa.Column(sa.Text, nullable=False)
    share_proto = sa.Column(sa.String(32), nullable=False)
    # Why the mapping is in error (never the export location or a key).
    reason = sa.Column(sa.String(255))


class InstanceAction(Base):
    __tablename__ = 'instance_actions'
    __table_args__ = (
        sa.Index('instance_actions_instance_uuid_idx', 'instance_uuid'),
        sa.Index('instance_actions_request_id_idx', 'request_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    action = sa.Column(sa.String(255), nullable=False)
    instance_uuid = sa.Column(sa.String(36), nullable=False)
    request_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255))
    project_id = sa.Column(sa.String(255))
    start_time = sa.Column(sa.DateTime, nullable=False, default=base.now)
    finish_time = sa.Column(sa.DateTime)
    message = sa.Column(sa.String(255))
    updated_at = sa.Column(sa.DateTime, default=base.now, onupdate=base.now)


class InstanceActionEvent(Base):
    __tablename__ = 'instance_actions_events'
    __table_args__ = (
        sa.Index('instance_actions_events_action_id_idx', 'action_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    action_id = sa.Column(sa.Integer,
                          sa.ForeignKey('instance_actions.id',
                                        ondelete='CASCADE'),
                          nullable=False)
    event = sa.Column(sa.String(255), nullable=False)
    start_time = sa.Column(sa.DateTime, nullable=False, default=base.now)
    finish_time = sa.Column(sa.DateTime)
    # None while running, then Success or Error.
    result = sa.Column(sa.String(255))
    traceback = sa.Column(sa.Text)
    details = sa.Column(sa.Text)
    host = sa.Column(sa.String(255))
