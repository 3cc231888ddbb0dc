"""Volumes from images: the image metadata of a volume
(``volume_image_metadata``), and whether a volume counts against its
project's quota (``consumes_quota``: not once a create that failed gave
the quota back).

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
        'volume_glance_metadata',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('volume_id', sa.String(36),
                  sa.ForeignKey('volumes.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.Text),
        sa.UniqueConstraint('volume_id', 'key',
                            name='uniq_volume_glance_metadata0volume_id0key'),
    )
    with op.batch_alter_table('volumes') as batch:
        batch.add_column(sa.Column('use_quota', sa.Boolean, nullable=False,
                                   server_default=sa.true()))


def downgrade():
    with op.batch_alter_table('volumes') as batch:
        batch.drop_column('use_quota')
    op.drop_table('volume_glance_metadata')
