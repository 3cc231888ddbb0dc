"""What a server create (and a rebuild, an update) may give a server
for itself, kept as given: ``user_data`` (base64, as Nova keeps it; no
metadata service or config drive hands it to a guest yet) and the
access addresses ``accessIPv4`` and ``accessIPv6``. None for the servers
made before, as for a server that was given none.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

from alembic import op
import sqlalchemy as sa

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('user_data', sa.Text))
        batch.add_column(sa.Column('access_ip_v4', sa.String(39)))
        batch.add_column(sa.Column('access_ip_v6', sa.String(39)))


def downgrade():
    with op.batch_alter_table('instances') as batch:
        batch.drop_column('access_ip_v6')
        batch.drop_column('access_ip_v4')
        batch.drop_column('user_data')
