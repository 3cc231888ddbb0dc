"""Snapshots of volumes and their metadata; what a volume was made of
(a snapshot, another volume).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from alembic import op
import sqlalchemy as sa

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('volumes', sa.Column('snapshot_id', sa.String(36)))
    op.add_column('volumes', sa.Column('source_volid', sa.String(36)))
    op.create_table(
        'snapshots',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('volume_id', sa.String(36),
                  sa.ForeignKey('volumes.id', ondelete='RESTRICT'),
                  nullable=False),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255)),
        sa.Column('name', sa.String(255)),
        sa.Column('description', sa.String(255)),
        sa.Column('status', sa.String(255), nullable=False),
        sa.Column('progress', sa.String(255)),
        sa.Column('volume_size', sa.Integer, nullable=False),
        sa.Column('provider_location', sa.String(255)),
        sa.Column('use_quota', sa.Boolean, nullable=False,
                  server_default=sa.true()),
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
    )
    op.create_index('snapshots_volume_idx', 'snapshots', ['volume_id'])
    op.create_index('snapshots_created_idx', 'snapshots',
                    ['created_at', 'id'])
    op.create_index('snapshots_project_created_idx', 'snapshots',
                    ['project_id', 'created_at', 'id'])
    op.create_table(
        'snapshot_metadata',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('snapshot_id', sa.String(36),
                  sa.ForeignKey('snapshots.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.String(255)),
        sa.UniqueConstraint('snapshot_id', 'key',
                            name='uniq_snapshot_metadata0snapshot_id0key'),
    )


def downgrade():
    op.drop_table('snapshot_metadata')
    op.drop_table('snapshots')
    with op.batch_alter_table('volumes') as batch:
        batch.drop_column('source_volid')
        batch.drop_column('snapshot_id')
