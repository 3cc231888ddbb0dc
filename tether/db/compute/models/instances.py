"""Models of instances, their disks (block device mappings), shares
and actions."""

import sqlalchemy as sa

from tether.db import base
from tether.db.compute.models.common import Base


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
