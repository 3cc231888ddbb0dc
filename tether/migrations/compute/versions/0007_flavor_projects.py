"""The projects given access to private flavors (Nova's
``flavor_projects``), one row per flavor and project.

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
    op.create_table(
        'flavor_projects',
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('flavor_id', sa.Integer,
                  sa.ForeignKey('flavors.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.UniqueConstraint('flavor_id', 'project_id',
                            name='uniq_flavor_projects0flavor_id0project_id'),
    )


def downgrade():
    op.drop_table('flavor_projects')
