"""Attachments of volumes (the attachments API), connector as JSON.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from alembic import op
import sqlalchemy as sa

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'volume_attachment',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('volume_id', sa.String(36),
                  sa.ForeignKey('volumes.id', ondelete='RESTRICT'),
                  nullable=False),
        sa.Column('instance_uuid', sa.String(36)),
        sa.Column('attached_host', sa.String(255)),
        sa.Column('mountpoint', sa.String(255)),
        sa.Column('attach_time', sa.DateTime),
        sa.Column('detach_time', sa.DateTime),
        sa.Column('attach_status', sa.String(255), nullable=False),
        sa.Column('attach_mode', sa.String(36)),
        sa.Column('connection_info', sa.Text),
        sa.Column('connector', sa.Text),
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
    )
    op.create_index('volume_attachment_volume_idx', 'volume_attachment',
                    ['volume_id'])
    op.create_index('volume_attachment_instance_idx', 'volume_attachment',
                    ['instance_uuid'])
    op.create_index('volume_attachment_host_idx', 'volume_attachment',
                    ['attached_host'])


def downgrade():
    op.drop_table('volume_attachment')
