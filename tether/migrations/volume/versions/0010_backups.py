"""Volume backups and their metadata.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'backups',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255)),
        sa.Column('volume_id', sa.String(36), nullable=False),
        sa.Column('snapshot_id', sa.String(36)),
        sa.Column('host', sa.String(255)),
        sa.Column('availability_zone', sa.String(255)),
        sa.Column('name', sa.String(255)),
        sa.Column('description', sa.String(255)),
        sa.Column('container', sa.String(255)),
        sa.Column('service_metadata', sa.String(255)),
        sa.Column('service', sa.String(255)),
        sa.Column('status', sa.String(255), nullable=False),
        sa.Column('fail_reason', sa.String(255)),
        sa.Column('size', sa.Integer, nullable=False),
        sa.Column('object_count', sa.Integer, nullable=False,
                  server_default='0'),
        sa.Column('parent_id', sa.String(36)),
        sa.Column('num_dependent_backups', sa.Integer, nullable=False,
                  server_default='0'),
        sa.Column('temp_snapshot_id', sa.String(36)),
        sa.Column('restore_volume_id', sa.String(36)),
        sa.Column('data_timestamp', sa.DateTime),
        sa.Column('use_quota', sa.Boolean, nullable=False,
                  server_default=sa.true()),
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
    )
    op.create_index('backups_created_idx', 'backups', ['created_at', 'id'])
    op.create_index('backups_project_created_idx', 'backups',
                    ['project_id', 'created_at', 'id'])
    op.create_index('backups_volume_idx', 'backups', ['volume_id'])
    op.create_index('backups_host_status_idx', 'backups', ['host', 'status'])
    op.create_index('backups_parent_idx', 'backups', ['parent_id'])
    op.create_index('backups_restore_volume_idx', 'backups',
                    ['restore_volume_id'])
    op.create_table(
        'backup_metadata',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('backup_id', sa.String(36),
                  sa.ForeignKey('backups.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.String(255)),
        sa.UniqueConstraint('backup_id', 'key',
                            name='uniq_backup_metadata0backup_id0key'),
    )


def downgrade():
    op.drop_table('backup_metadata')
    op.drop_table('backups')
