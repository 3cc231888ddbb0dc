"""Key pairs (``/os-keypairs``), unique per user and name as in Nova, and
the usage counters of counted quotas (``key_pairs`` per user).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'key_pairs',
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255), nullable=False),
        sa.Column('fingerprint', sa.String(255), nullable=False),
        sa.Column('public_key', sa.Text, nullable=False),
        sa.Column('type', sa.String(16), nullable=False,
                  server_default='ssh'),
        sa.UniqueConstraint('user_id', 'name',
                            name='uniq_key_pairs0user_id0name'),
    )
    op.create_table(
        'quota_usages',
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('resource', sa.String(255), nullable=False),
        sa.Column('scope', sa.String(255), nullable=False),
        sa.Column('in_use', sa.Integer, nullable=False),
        sa.UniqueConstraint('resource', 'scope',
                            name='uniq_quota_usages0resource0scope'),
    )


def downgrade():
    op.drop_table('quota_usages')
    op.drop_table('key_pairs')
