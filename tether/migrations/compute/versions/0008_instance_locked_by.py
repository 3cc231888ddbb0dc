"""Who locked a server and why (the lock server action): ``locked_by``
is ``owner`` (a user of the server's project) or ``admin`` (anyone
else), as in Nova; ``locked_reason`` is the lock's reason (2.73), which
Nova keeps in the instance's system metadata. None for the servers made
before, which are all unlocked.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from alembic import op
import sqlalchemy as sa

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('locked_by', sa.String(5)))
        batch.add_column(sa.Column('locked_reason', sa.String(255)))


def downgrade():
    with op.batch_alter_table('instances') as batch:
        batch.drop_column('locked_reason')
        batch.drop_column('locked_by')
