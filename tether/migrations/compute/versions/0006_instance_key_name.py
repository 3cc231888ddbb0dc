"""The key pair a server was created with (``key_name`` of a server
create): its name, shown in the server, and its public key as it was
then (Nova's ``key_data``); None for the servers made before, as for
those created without one.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('key_name', sa.String(255)))
        batch.add_column(sa.Column('key_data', sa.Text))


def downgrade():
    with op.batch_alter_table('instances') as batch:
        batch.drop_column('key_data')
        batch.drop_column('key_name')
