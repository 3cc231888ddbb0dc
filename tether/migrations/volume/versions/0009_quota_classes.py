"""Quota classes (``/os-quota-class-sets``: the ``default`` class's
limits are every project's defaults), and room in the quota tables for
the names of the per-volume-type resources (``gigabytes_<type name>``:
300 characters, as Cinder's).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

_TABLES = ('quotas', 'quota_usages', 'reservations')


def upgrade():
    op.create_table(
        'quota_classes',
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('class_name', sa.String(255), nullable=False),
        sa.Column('resource', sa.String(300), nullable=False),
        sa.Column('hard_limit', sa.Integer, nullable=False),
        sa.UniqueConstraint('class_name', 'resource',
                            name='uniq_quota_classes0class_name0resource'),
    )
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.alter_column('resource', type_=sa.String(300),
                               existing_type=sa.String(255),
                               existing_nullable=False)


def downgrade():
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.alter_column('resource', type_=sa.String(255),
                               existing_type=sa.String(300),
                               existing_nullable=False)
    op.drop_table('quota_classes')
