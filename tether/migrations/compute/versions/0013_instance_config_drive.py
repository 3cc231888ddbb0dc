"""Whether a server has a config drive (Nova's instances.config_drive:
"True" or ""), as its create asked or ``[DEFAULT] force_config_drive``
of its compute host decided. "" for the servers made before, which have
none.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('config_drive', sa.String(255),
                                   nullable=False, server_default=''))


def downgrade():
    with op.batch_alter_table('instances') as batch:
        batch.drop_column('config_drive')
