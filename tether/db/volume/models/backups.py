"""Models of volume backups and their metadata."""

import sqlalchemy as sa
from sqlalchemy import orm

from tether.db import base
from tether.db.volume.models.common import _KeyValueMixin, Base


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
