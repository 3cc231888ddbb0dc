"""Generic volume groups: group types and their specs, groups (with the
volume types each takes), group snapshots; a volume's group, a
snapshot's group snapshot.

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


def _timestamps():
    return [sa.Column('created_at', sa.DateTime, nullable=False),
            sa.Column('updated_at', sa.DateTime)]


def upgrade():
    op.create_table(
        'group_types',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('name', sa.String(255), nullable=False, unique=True),
        sa.Column('description', sa.String(255)),
        sa.Column('is_public', sa.Boolean, nullable=False),
        *_timestamps())
    op.create_table(
        'group_type_specs',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.String(255)),
        sa.Column('group_type_id', sa.String(36),
                  sa.ForeignKey('group_types.id', ondelete='CASCADE'),
                  nullable=False),
        sa.UniqueConstraint('group_type_id', 'key',
                            name='uniq_group_type_specs0group_type_id0key'))
    op.create_table(
        'groups',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255)),
        sa.Column('host', sa.String(255)),
        sa.Column('availability_zone', sa.String(255)),
        sa.Column('name', sa.String(255)),
        sa.Column('description', sa.String(255)),
        sa.Column('status', sa.String(255), nullable=False),
        sa.Column('group_type_id', sa.String(36),
                  sa.ForeignKey('group_types.id', ondelete='RESTRICT'),
                  nullable=False),
        sa.Column('group_snapshot_id', sa.String(36)),
        sa.Column('source_group_id', sa.String(36)),
        *_timestamps())
    op.create_index('ix_groups_group_type_id', 'groups', ['group_type_id'])
    op.create_index('groups_created_idx', 'groups', ['created_at', 'id'])
    op.create_index('groups_project_created_idx', 'groups',
                    ['project_id', 'created_at', 'id'])
    op.create_table(
        'group_volume_type_mapping',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('group_id', sa.String(36),
                  sa.ForeignKey('groups.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('volume_type_id', sa.String(36),
                  sa.ForeignKey('volume_types.id', ondelete='RESTRICT'),
                  nullable=False),
        sa.UniqueConstraint(
            'group_id', 'volume_type_id',
            name='uniq_group_volume_type_mapping0group_id0volume_type_id'))
    op.create_index('ix_group_volume_type_mapping_volume_type_id',
                    'group_volume_type_mapping', ['volume_type_id'])
    op.create_table(
        'group_snapshots',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('group_id', sa.String(36),
                  sa.ForeignKey('groups.id', ondelete='RESTRICT'),
                  nullable=False),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255)),
        sa.Column('name', sa.String(255)),
        sa.Column('description', sa.String(255)),
        sa.Column('status', sa.String(255), nullable=False),
        sa.Column('group_type_id', sa.String(36), nullable=False),
        *_timestamps())
    op.create_index('ix_group_snapshots_group_id', 'group_snapshots',
                    ['group_id'])
    op.create_index('group_snapshots_created_idx', 'group_snapshots',
                    ['created_at', 'id'])
    op.create_index('group_snapshots_project_created_idx',
                    'group_snapshots', ['project_id', 'created_at', 'id'])
    op.add_column('volumes', sa.Column('group_id', sa.String(36)))
    op.create_index('ix_volumes_group_id', 'volumes', ['group_id'])
    op.add_column('snapshots',
                  sa.Column('group_snapshot_id', sa.String(36)))
    op.create_index('ix_snapshots_group_snapshot_id', 'snapshots',
                    ['group_snapshot_id'])


def downgrade():
    op.drop_index('ix_snapshots_group_snapshot_id', 'snapshots')
    with op.batch_alter_table('snapshots') as batch:
        batch.drop_column('group_snapshot_id')
    op.drop_index('ix_volumes_group_id', 'volumes')
    with op.batch_alter_table('volumes') as batch:
        batch.drop_column('group_id')
    op.drop_table('group_snapshots')
    op.drop_table('group_volume_type_mapping')
    op.drop_table('groups')
    op.drop_table('group_type_specs')
    op.drop_table('group_types')
