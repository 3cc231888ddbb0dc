"""Servers from images: the image of an instance (``image_ref``, '' for
a server that boots from a volume), and what each block device mapping
is made of (``source_type``, ``destination_type``, ``image_id``), as Nova
records them. A mapping's volume is made by its compute host when its
source is an image, so ``volume_id`` may be empty until then; a local
root disk made of an image has none.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from alembic import op
import sqlalchemy as sa

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('image_ref', sa.String(255),
                                   nullable=False, server_default=''))
    with op.batch_alter_table('block_device_mapping') as batch:
        # Every mapping so far is a volume the user gave.
        batch.add_column(sa.Column('source_type', sa.String(255),
                                   nullable=False, server_default='volume'))
        batch.add_column(sa.Column('destination_type', sa.String(255),
                                   nullable=False, server_default='volume'))
        batch.add_column(sa.Column('image_id', sa.String(36)))
        batch.alter_column('volume_id', existing_type=sa.String(36),
                           nullable=True)


def downgrade():
    with op.batch_alter_table('block_device_mapping') as batch:
        batch.alter_column('volume_id', existing_type=sa.String(36),
                           nullable=False)
        batch.drop_column('image_id')
        batch.drop_column('destination_type')
        batch.drop_column('source_type')
    with op.batch_alter_table('instances') as batch:
        batch.drop_column('image_ref')
