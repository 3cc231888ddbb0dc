"""Models of volumes, their metadata, attachments, snapshots and
transfers."""

import sqlalchemy as sa
from sqlalchemy import orm

from tether.db import base
from tether.db.volume.models.common import _KeyValueMixin, Base


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
