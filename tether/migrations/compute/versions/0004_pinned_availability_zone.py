"""The zone a server was asked for at create (compute 2.96's
``pinned_availability_zone``); None for the servers made before, as for
those that asked for none.

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
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('pinned_availability_zone',
                                   sa.String(255)))


def downgrade():
    with op.batch_alter_table('instances') as batch:
        batch.drop_column('pinned_availability_zone')
