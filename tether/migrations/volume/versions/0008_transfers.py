"""Volume transfers (offers of a volume to another project).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'transfers',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('volume_id', sa.String(36),
                  sa.ForeignKey('volumes.id', ondelete='CASCADE'),
                  nullable=False, unique=True),
        sa.Column('source_project_id', sa.String(255), nullable=False),
        sa.Column('name', sa.String(255)),
        sa.Column('salt', sa.String(64), nullable=False),
        sa.Column('crypt_hash', sa.String(64), nullable=False),
        sa.Column('no_snapshots', sa.Boolean, nullable=False,
                  server_default=sa.false()),
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
    )
    op.create_index('transfers_created_idx', 'transfers',
                    ['created_at', 'id'])
    op.create_index('transfers_project_created_idx', 'transfers',
                    ['source_project_id', 'created_at', 'id'])


def downgrade():
    op.drop_table('transfers')
