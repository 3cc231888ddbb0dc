"""Server groups (``/os-server-groups``) and their members, and host
aggregates (``/os-aggregates``) with their hosts and metadata.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def _timestamps():
    return [sa.Column('created_at', sa.DateTime, nullable=False),
            sa.Column('updated_at', sa.DateTime)]


def upgrade():
    op.create_table(
        'server_groups', *_timestamps(),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255), nullable=False),
        sa.Column('policy', sa.String(32), nullable=False),
        sa.Column('rules', sa.Text),
        sa.UniqueConstraint('uuid', name='uniq_server_groups0uuid'),
    )
    op.create_index('server_groups_project_id_idx', 'server_groups',
                    ['project_id'])
    op.create_table(
        'server_group_members', *_timestamps(),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('group_id', sa.Integer,
                  sa.ForeignKey('server_groups.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('instance_uuid', sa.String(36), nullable=False),
        sa.UniqueConstraint('instance_uuid',
                            name='uniq_server_group_members0instance_uuid'),
    )
    op.create_index('server_group_members_group_id_idx',
                    'server_group_members', ['group_id'])
    op.create_table(
        'aggregates', *_timestamps(),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.UniqueConstraint('uuid', name='uniq_aggregates0uuid'),
        sa.UniqueConstraint('name', name='uniq_aggregates0name'),
    )
    op.create_table(
        'aggregate_hosts', *_timestamps(),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('aggregate_id', sa.Integer,
                  sa.ForeignKey('aggregates.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('host', sa.String(255), nullable=False),
        sa.UniqueConstraint('aggregate_id', 'host',
                            name='uniq_aggregate_hosts0aggregate_id0host'),
    )
    op.create_index('aggregate_hosts_host_idx', 'aggregate_hosts', ['host'])
    op.create_table(
        'aggregate_metadata', *_timestamps(),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('aggregate_id', sa.Integer,
                  sa.ForeignKey('aggregates.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.String(255), nullable=False),
        sa.UniqueConstraint('aggregate_id', 'key',
                            name='uniq_aggregate_metadata0aggregate_id0key'),
    )
    op.create_index('aggregate_metadata_key_idx', 'aggregate_metadata',
                    ['key'])


def downgrade():
    op.drop_table('aggregate_metadata')
    op.drop_table('aggregate_hosts')
    op.drop_table('aggregates')
    op.drop_table('server_group_members')
    op.drop_table('server_groups')
