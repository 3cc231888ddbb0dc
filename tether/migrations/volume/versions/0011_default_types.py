"""Projects' default volume types (/default-types, 3.62).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'default_volume_types',
        sa.Column('project_id', sa.String(255), primary_key=True),
        sa.Column('volume_type_id', sa.String(36),
                  sa.ForeignKey('volume_types.id'), nullable=False),
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
    )
    op.create_index('ix_default_volume_types_volume_type_id',
                    'default_volume_types', ['volume_type_id'])


def downgrade():
    op.drop_index('ix_default_volume_types_volume_type_id',
                  table_name='default_volume_types')
    op.drop_table('default_volume_types')
