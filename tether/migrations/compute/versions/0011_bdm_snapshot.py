"""Block device mappings made of volume snapshots (``source_type``
``snapshot``, as Nova's): the snapshot a volume is made of, kept so that
the compute host that makes the volume, a restart, and the image of a
volume-backed server's snapshot know it.

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
    with op.batch_alter_table('block_device_mapping') as batch:
        batch.add_column(sa.Column('snapshot_id', sa.String(36)))


def downgrade():
    with op.batch_alter_table('block_device_mapping') as batch:
        batch.drop_column('snapshot_id')
