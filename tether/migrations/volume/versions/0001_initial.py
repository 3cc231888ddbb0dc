"""Initial volume database: volumes, metadata, types, services, quotas.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import datetime
import uuid

from alembic import op
import sqlalchemy as sa

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None

DEFAULT_TYPE_NAME = '__DEFAULT__'


def _timestamps():
    return [sa.Column('created_at', sa.DateTime, nullable=False),
            sa.Column('updated_at', sa.DateTime)]


def _key_value(table, fk_column, fk_target, unique_name):
    op.create_table(
        table,
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(fk_column, sa.String(36),
                  sa.ForeignKey(fk_target, ondelete='CASCADE'),
                  nullable=False),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.String(255)),
        sa.UniqueConstraint(fk_column, 'key', name=unique_name),
    )


def upgrade():
    types = op.create_table(
        'volume_types',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('name', sa.String(255), nullable=False, unique=True),
        sa.Column('description', sa.String(255)),
        sa.Column('is_public', sa.Boolean, nullable=False),
        *_timestamps(),
    )
    _key_value('volume_type_extra_specs', 'volume_type_id', 'volume_types.id',
               'uniq_volume_type_extra_specs0type0key')

    op.create_table(
        'volumes',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255)),
        sa.Column('host', sa.String(255)),
        sa.Column('name', sa.String(255)),
        sa.Column('description', sa.String(255)),
        sa.Column('size', sa.Integer, nullable=False),
        sa.Column('availability_zone', sa.String(255)),
        sa.Column('status', sa.String(255), nullable=False),
        sa.Column('previous_status', sa.String(255)),
        sa.Column('attach_status', sa.String(255), nullable=False),
        sa.Column('volume_type_id', sa.String(36),
                  sa.ForeignKey('volume_types.id', ondelete='RESTRICT'),
                  nullable=False),
        sa.Column('bootable', sa.Boolean, nullable=False),
        sa.Column('multiattach', sa.Boolean, nullable=False),
        sa.Column('provider_location', sa.String(255)),
        sa.Column('launched_at', sa.DateTime),
        *_timestamps(),
    )
    op.create_index('volumes_project_created_idx', 'volumes',
                    ['project_id', 'created_at'])
    op.create_index('volumes_host_status_idx', 'volumes', ['host', 'status'])
    op.create_index('volumes_created_idx', 'volumes', ['created_at'])
    op.create_index(op.f('ix_volumes_volume_type_id'), 'volumes',
                    ['volume_type_id'])
    _key_value('volume_metadata', 'volume_id', 'volumes.id',
               'uniq_volume_metadata0volume_id0key')
    _key_value('volume_admin_metadata', 'volume_id', 'volumes.id',
               'uniq_volume_admin_metadata0volume_id0key')

    op.create_table(
        'services',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('host', sa.String(255), nullable=False),
        sa.Column('binary', sa.String(255), nullable=False),
        sa.Column('topic', sa.String(255), nullable=False),
        sa.Column('availability_zone', sa.String(255)),
        sa.Column('disabled', sa.Boolean, nullable=False),
        sa.Column('disabled_reason', sa.String(255)),
        sa.Column('report_count', sa.Integer, nullable=False),
        sa.Column('heartbeat_at', sa.DateTime),
        sa.Column('rpc_current_version', sa.String(36)),
        sa.Column('object_current_version', sa.String(36)),
        sa.Column('capabilities', sa.Text),
        *_timestamps(),
        sa.UniqueConstraint(
            'host', 'binary', name='uniq_services0host0binary'),
    )

    for table, extra in (
            ('quotas', [sa.Column('hard_limit', sa.Integer, nullable=False)]),
            ('quota_usages', [
                sa.Column('in_use', sa.Integer, nullable=False),
                sa.Column('reserved', sa.Integer, nullable=False)])):
        op.create_table(
            table,
            sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
            sa.Column('project_id', sa.String(255), nullable=False),
            sa.Column('resource', sa.String(255), nullable=False),
            *extra,
            *_timestamps(),
            sa.UniqueConstraint('project_id', 'resource',
                                name='uniq_%s0project_id0resource' % table),
        )

    op.create_table(
        'reservations',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False, unique=True),
        sa.Column('usage_id', sa.Integer,
                  sa.ForeignKey('quota_usages.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('resource', sa.String(255), nullable=False),
        sa.Column('delta', sa.Integer, nullable=False),
        sa.Column('expire', sa.DateTime, nullable=False),
        sa.Column('resource_id', sa.String(36)),
        *_timestamps(),
    )
    op.create_index('reservations_expire_idx', 'reservations', ['expire'])
    op.create_index('reservations_resource_id_idx', 'reservations',
                    ['resource_id'])

    op.bulk_insert(types, [{
        'id': str(uuid.uuid4()), 'name': DEFAULT_TYPE_NAME,
        'description': 'Default Volume Type', 'is_public': True,
        'created_at': datetime.datetime.now(
            datetime.timezone.utc).replace(tzinfo=None),
    }])
