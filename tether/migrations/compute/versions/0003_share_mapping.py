"""Shares attached to servers (``/servers/{id}/shares``): the
share_mapping table, as Nova's, with a tag column as long as the longest
tag the API accepts and the reason of a mapping in error.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from alembic import op
import sqlalchemy as sa

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'share_mapping',
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False, unique=True),
        sa.Column('instance_uuid', sa.String(36),
                  sa.ForeignKey('instances.uuid', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('share_id', sa.String(36), nullable=False),
        sa.Column('status', sa.String(32), nullable=False),
        sa.Column('tag', sa.String(64), nullable=False),
        sa.Column('export_location', sa.Text, nullable=False),
        sa.Column('share_proto', sa.String(32), nullable=False),
        sa.Column('reason', sa.String(255)),
        sa.UniqueConstraint('instance_uuid', 'share_id',
                            name='uniq_share_mapping0instance_uuid0share_id'),
        sa.UniqueConstraint('instance_uuid', 'tag',
                            name='uniq_share_mapping0instance_uuid0tag'),
    )
    op.create_index('share_mapping_share_id_idx', 'share_mapping',
                    ['share_id'])


def downgrade():
    op.drop_index('share_mapping_share_id_idx', 'share_mapping')
    op.drop_table('share_mapping')
