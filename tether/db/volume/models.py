"""SQLAlchemy models of the volume service database."""

import sqlalchemy as sa
from sqlalchemy import orm

from tether.db import base

# The volume database's tables (a MetaData of their own).
Base = base.service_base('VolumeBase')


class Volume(base.TimestampMixin, Base):
    __tablename__ = 'volumes'
    __table_args__ = (
        sa.Index('volumes_project_created_idx', 'project_id', 'created_at'),
        sa.Index('volumes_host_status_idx', 'host', 'status'),
        sa.Index('volumes_created_idx', 'created_at'),
    )

    id = sa.Column(sa.String(36), primary_key=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255))
    host = sa.Column(sa.String(255))
    name = sa.Column(sa.String(255))
    description = sa.Column(sa.String(255))
    size = sa.Column(sa.Integer, nullable=False)
    availability_zone = sa.Column(sa.String(255))
    status = sa.Column(sa.String(255), nullable=False)
    previous_status = sa.Column(sa.String(255))
    attach_status = sa.Column(sa.String(255), nullable=False)
    volume_type_id = sa.Column(
        sa.String(36),
        sa.ForeignKey('volume_types.id', ondelete='RESTRICT'),
        nullable=False, index=True)
    bootable = sa.Column(sa.Boolean, nullable=False, default=False)
    multiattach = sa.Column(sa.Boolean, nullable=False, default=False)
    provider_location = sa.Column(sa.String(255))
    launched_at = sa.Column(sa.DateTime)
    # False once the volume gave its quota back (a create that failed on
    # the backend): its delete gives nothing back again.
    use_quota = sa.Column(sa.Boolean, nullable=False, default=True,
                          server_default=sa.true())
    # What the volume was made of, if it was made of a snapshot or of
    # another volume (a clone).
    snapshot_id = sa.Column(sa.String(36))
    source_volid = sa.Column(sa.String(36))
    # The generic volume group it is in (tether.volume.api.groups).
    group_id = sa.Column(sa.String(36), index=True)

    volume_metadata = orm.relationship(
        'VolumeMetadata', lazy='selectin', cascade='all, delete-orphan',
        passive_deletes=True)
    volume_admin_metadata = orm.relationship(
        'VolumeAdminMetadata', lazy='selectin', cascade='all, delete-orphan',
        passive_deletes=True)
    volume_glance_metadata = orm.relationship(
        'VolumeGlanceMetadata', lazy='selectin',
        cascade='all, delete-orphan', passive_deletes=True)


class _KeyValueMixin:
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    key = sa.Column(sa.String(255), nullable=False)
    value = sa.Column(sa.String(255))


class VolumeMetadata(_KeyValueMixin, Base):
    __tablename__ = 'volume_metadata'
    __table_args__ = (
        sa.UniqueConstraint('volume_id', 'key',
                            name='uniq_volume_metadata0volume_id0key'),
    )
    volume_id = sa.Column(sa.String(36),
                          sa.ForeignKey('volumes.id', ondelete='CASCADE'),
                          nullable=False)


class VolumeAdminMetadata(_KeyValueMixin, Base):
    __tablename__ = 'volume_admin_metadata'
    __table_args__ = (
        sa.UniqueConstraint('volume_id', 'key',
                            name='uniq_volume_admin_metadata0volume_id0key'),
    )
    volume_id = sa.Column(sa.String(36),
                          sa.ForeignKey('volumes.id', ondelete='CASCADE'),
                          nullable=False)


class VolumeGlanceMetadata(Base):
    """What a volume made from an image knows of it (Cinder's
    volume_image_metadata): image_id, image_name, checksum, size ..."""
    __tablename__ = 'volume_glance_metadata'
    __table_args__ = (
        sa.UniqueConstraint('volume_id', 'key',
                            name='uniq_volume_glance_metadata0volume_id0key'),
    )
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    volume_id = sa.Column(sa.String(36),
                          sa.ForeignKey('volumes.id', ondelete='CASCADE'),
                          nullable=False)
    key = sa.Column(sa.String(255), nullable=False)
    value = sa.Column(sa.Text)


class VolumeType(base.TimestampMixin, Base):
    __tablename__ = 'volume_types'

    id = sa.Column(sa.String(36), primary_key=True)
    name = sa.Column(sa.String(255), nullable=False, unique=True)
    description = sa.Column(sa.String(255))
    is_public = sa.Column(sa.Boolean, nullable=False, default=True)

    extra_specs = orm.relationship(
        'VolumeTypeExtraSpec', lazy='selectin', cascade='all, delete-orphan',
        passive_deletes=True)


class VolumeTypeProject(base.TimestampMixin, Base):
    """A project that may use a private volume type (Cinder's
    volume_type_projects, the os-volume-type-access lists)."""
    __tablename__ = 'volume_type_projects'
    __table_args__ = (
        sa.UniqueConstraint(
            'volume_type_id', 'project_id',
            name='uniq_volume_type_projects0volume_type_id0project_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    volume_type_id = sa.Column(
        sa.String(36), sa.ForeignKey('volume_types.id', ondelete='CASCADE'),
        nullable=False)
    project_id = sa.Column(sa.String(255), nullable=False)


# The type's name, read in the same SELECT as the volume (a correlated
# subquery): responses show it, and a second query per request would cost
# more than the volume itself.
Volume.volume_type_name = orm.column_property(
    sa.select(VolumeType.name)
    .where(VolumeType.id == Volume.volume_type_id)
    .correlate_except(VolumeType)
    .scalar_subquery())


class VolumeTypeExtraSpec(_KeyValueMixin, Base):
    __tablename__ = 'volume_type_extra_specs'
    __table_args__ = (
        sa.UniqueConstraint('volume_type_id', 'key',
                            name='uniq_volume_type_extra_specs0type0key'),
    )
    volume_type_id = sa.Column(
        sa.String(36), sa.ForeignKey('volume_types.id', ondelete='CASCADE'),
        nullable=False)


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


class VolumeAttachment(base.TimestampMixin, Base):
    """One attachment of a volume to a consumer (an instance, a host)."""
    __tablename__ = 'volume_attachment'
    __table_args__ = (
        sa.Index('volume_attachment_volume_idx', 'volume_id'),
        sa.Index('volume_attachment_instance_idx', 'instance_uuid'),
        sa.Index('volume_attachment_host_idx', 'attached_host'),
        # The order of a list (newest first, id breaking ties), of every
        # project's and of one project's.
        sa.Index('volume_attachment_created_idx', 'created_at', 'id'),
        sa.Index('volume_attachment_project_created_idx', 'project_id',
                 'created_at', 'id'),
    )

    id = sa.Column(sa.String(36), primary_key=True)
    volume_id = sa.Column(
        sa.String(36), sa.ForeignKey('volumes.id', ondelete='RESTRICT'),
        nullable=False)
    # The project of its volume, copied when the attachment is made (a
    # volume never changes project): a project's list of attachments
    # reads its own index rather than every volume of the project.
    project_id = sa.Column(sa.String(255), nullable=False)
    instance_uuid = sa.Column(sa.String(36))
    attached_host = sa.Column(sa.String(255))
    mountpoint = sa.Column(sa.String(255))
    attach_time = sa.Column(sa.DateTime)
    detach_time = sa.Column(sa.DateTime)
    attach_status = sa.Column(sa.String(255), nullable=False)
    attach_mode = sa.Column(sa.String(36))
    # JSON: what the backend returned, and the consumer's connector, whole
    # (no 255-character key/value rows; see doc/source/attachments.rst).
    connection_info = sa.Column(sa.Text)
    connector = sa.Column(sa.Text)


# The attachments a volume response lists (those attached), loaded with the
# volumes in one more SELECT per page rather than one per volume.
Volume.attached = orm.relationship(
    VolumeAttachment, lazy='selectin', viewonly=True,
    primaryjoin=sa.and_(VolumeAttachment.volume_id == Volume.id,
                        VolumeAttachment.attach_status == 'attached'),
    order_by=VolumeAttachment.attach_time)


class Snapshot(base.TimestampMixin, Base):
    """A point-in-time copy of a volume, on the volume's backend."""
    __tablename__ = 'snapshots'
    __table_args__ = (
        sa.Index('snapshots_volume_idx', 'volume_id'),
        # The order of a list (newest first, id breaking ties), of every
        # project's and of one project's.
        sa.Index('snapshots_created_idx', 'created_at', 'id'),
        sa.Index('snapshots_project_created_idx', 'project_id',
                 'created_at', 'id'),
    )

    id = sa.Column(sa.String(36), primary_key=True)
    # A volume with snapshots is not deleted under them (the API deletes
    # them first, or refuses).
    volume_id = sa.Column(
        sa.String(36), sa.ForeignKey('volumes.id', ondelete='RESTRICT'),
        nullable=False)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255))
    name = sa.Column(sa.String(255))
    description = sa.Column(sa.String(255))
    status = sa.Column(sa.String(255), nullable=False)
    progress = sa.Column(sa.String(255))
    # The volume's size when the snapshot was taken (GiB).
    volume_size = sa.Column(sa.Integer, nullable=False)
    provider_location = sa.Column(sa.String(255))
    # False once the snapshot gave its quota back (its create failed).
    use_quota = sa.Column(sa.Boolean, nullable=False, default=True,
                          server_default=sa.true())
    # The group snapshot it was taken in (such a snapshot goes with it).
    group_snapshot_id = sa.Column(sa.String(36), index=True)

    snapshot_metadata = orm.relationship(
        'SnapshotMetadata', lazy='selectin', cascade='all, delete-orphan',
        passive_deletes=True)


class SnapshotMetadata(_KeyValueMixin, Base):
    __tablename__ = 'snapshot_metadata'
    __table_args__ = (
        sa.UniqueConstraint('snapshot_id', 'key',
                            name='uniq_snapshot_metadata0snapshot_id0key'),
    )
    snapshot_id = sa.Column(sa.String(36),
                            sa.ForeignKey('snapshots.id', ondelete='CASCADE'),
                            nullable=False)


class Transfer(base.TimestampMixin, Base):
    """An offer of a volume to whoever holds its key (Cinder's
    transfers): the volume is ``awaiting-transfer`` while it exists. The
    row goes when the offer is accepted or cancelled (Cinder keeps it
    soft-deleted, where no API call shows it again)."""
    __tablename__ = 'transfers'
    __table_args__ = (
        # The order of a list (oldest first, id breaking ties), of every
        # project's and of one project's.
        sa.Index('transfers_created_idx', 'created_at', 'id'),
        sa.Index('transfers_project_created_idx', 'source_project_id',
                 'created_at', 'id'),
    )

    id = sa.Column(sa.String(36), primary_key=True)
    # One offer per volume (only an available volume is offered); the
    # offer goes with its volume.
    volume_id = sa.Column(
        sa.String(36), sa.ForeignKey('volumes.id', ondelete='CASCADE'),
        nullable=False, unique=True)
    # The volume's project when it was offered (which it keeps until the
    # offer is accepted).
    source_project_id = sa.Column(sa.String(255), nullable=False)
    name = sa.Column(sa.String(255))
    # The key is never stored: a random salt and the HMAC-SHA256 of the
    # key under it, both hex.
    salt = sa.Column(sa.String(64), nullable=False)
    crypt_hash = sa.Column(sa.String(64), nullable=False)
    no_snapshots = sa.Column(sa.Boolean, nullable=False, default=False,
                             server_default=sa.false())


class Backup(base.TimestampMixin, Base):
    """A copy of a volume's data in a backup repository, made and read by
    tether-backup (Cinder's backups). It outlives its volume: no foreign
    key holds the volume, its snapshot or its parent (an imported record
    may name a parent this database never had)."""
    __tablename__ = 'backups'
    __table_args__ = (
        # The order of a list (newest first, id breaking ties), of every
        # project's and of one project's.
        sa.Index('backups_created_idx', 'created_at', 'id'),
        sa.Index('backups_project_created_idx', 'project_id', 'created_at',
                 'id'),
        sa.Index('backups_volume_idx', 'volume_id'),
        sa.Index('backups_host_status_idx', 'host', 'status'),
        sa.Index('backups_parent_idx', 'parent_id'),
        sa.Index('backups_restore_volume_idx', 'restore_volume_id'),
    )

    id = sa.Column(sa.String(36), primary_key=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255))
    volume_id = sa.Column(sa.String(36), nullable=False)
    # The snapshot it was made of (a backup of a snapshot).
    snapshot_id = sa.Column(sa.String(36))
    # The tether-backup that made it, or that works on it now.
    host = sa.Column(sa.String(255))
    availability_zone = sa.Column(sa.String(255))
    name = sa.Column(sa.String(255))
    description = sa.Column(sa.String(255))
    # Where the driver keeps it (a directory of posix_path), and the
    # prefix of its files there (Cinder's service_metadata).
    container = sa.Column(sa.String(255))
    service_metadata = sa.Column(sa.String(255))
    # The driver that made it, by Cinder's name of that driver.
    service = sa.Column(sa.String(255))
    status = sa.Column(sa.String(255), nullable=False)
    fail_reason = sa.Column(sa.String(255))
    # The volume's size when it was made (GiB).
    size = sa.Column(sa.Integer, nullable=False)
    object_count = sa.Column(sa.Integer, nullable=False, default=0,
                             server_default='0')
    # An incremental backup's parent; the parent counts its children (a
    # backup with children is not deleted: a delete's conditional UPDATE
    # finds the count 0, and an incremental create raises it in the
    # transaction that inserts the child).
    parent_id = sa.Column(sa.String(36))
    num_dependent_backups = sa.Column(sa.Integer, nullable=False, default=0,
                                      server_default='0')
    # The snapshot a backup of an attached volume is read from while it
    # is made (deleted after).
    temp_snapshot_id = sa.Column(sa.String(36))
    # The volume a restore writes into.
    restore_volume_id = sa.Column(sa.String(36))
    # When the data it holds was the volume's (its create, or the
    # snapshot's).
    data_timestamp = sa.Column(sa.DateTime)
    # False once it gave its quota back (its create failed).
    use_quota = sa.Column(sa.Boolean, nullable=False, default=True,
                          server_default=sa.true())

    backup_metadata = orm.relationship(
        'BackupMetadata', lazy='selectin', cascade='all, delete-orphan',
        passive_deletes=True)


class BackupMetadata(_KeyValueMixin, Base):
    __tablename__ = 'backup_metadata'
    __table_args__ = (
        sa.UniqueConstraint('backup_id', 'key',
                            name='uniq_backup_metadata0backup_id0key'),
    )
    backup_id = sa.Column(sa.String(36),
                          sa.ForeignKey('backups.id', ondelete='CASCADE'),
                          nullable=False)


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
