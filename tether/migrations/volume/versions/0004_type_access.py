"""Private volume types' access lists (os-volume-type-access): the
projects that may use each private type.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from alembic import op
import sqlalchemy as sa

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'volume_type_projects',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('volume_type_id', sa.String(36),
                  sa.ForeignKey('volume_types.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
        sa.UniqueConstraint(
            'volume_type_id', 'project_id',
            name='uniq_volume_type_projects0volume_type_id0project_id'),
    )


def downgrade():
    op.drop_table('volume_type_projects')
