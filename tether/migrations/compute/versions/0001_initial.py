"""The compute database: flavors (with small defaults), services,
instances, their volumes and their actions.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import datetime

from alembic import op
import sqlalchemy as sa

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'flavors',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('flavorid', sa.String(length=255), nullable=False),
        sa.Column('name', sa.String(length=255), nullable=False),
        sa.Column('memory_mb', sa.Integer(), nullable=False),
        sa.Column('vcpus', sa.Integer(), nullable=False),
        sa.Column('root_gb', sa.Integer(), nullable=False),
        sa.Column('ephemeral_gb', sa.Integer(), nullable=False),
        sa.Column('swap', sa.Integer(), nullable=False),
        sa.Column('rxtx_factor', sa.Float(), nullable=False),
        sa.Column('is_public', sa.Boolean(), nullable=False),
        sa.Column('disabled', sa.Boolean(), nullable=False),
        sa.Column('description', sa.Text(), nullable=True),
        sa.Column('extra_specs', sa.Text(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('flavorid', name='uniq_flavors0flavorid'),
        sa.UniqueConstraint('name', name='uniq_flavors0name')
    )
    op.create_table(
        'instance_actions',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('action', sa.String(length=255), nullable=False),
        sa.Column('instance_uuid', sa.String(length=36), nullable=False),
        sa.Column('request_id', sa.String(length=255), nullable=False),
        sa.Column('user_id', sa.String(length=255), nullable=True),
        sa.Column('project_id', sa.String(length=255), nullable=True),
        sa.Column('start_time', sa.DateTime(), nullable=False),
        sa.Column('finish_time', sa.DateTime(), nullable=True),
        sa.Column('message', sa.String(length=255), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('instance_actions', schema=None) as batch_op:
        batch_op.create_index(
            'instance_actions_instance_uuid_idx', ['instance_uuid'],
            unique=False)
        batch_op.create_index(
            'instance_actions_request_id_idx', ['request_id'], unique=False)

    op.create_table(
        'instances',
        sa.Column('uuid', sa.String(length=36), nullable=False),
        sa.Column('project_id', sa.String(length=255), nullable=False),
        sa.Column('user_id', sa.String(length=255), nullable=False),
        sa.Column('display_name', sa.String(length=255), nullable=True),
        sa.Column('display_description', sa.Text(), nullable=True),
        sa.Column('hostname', sa.String(length=255), nullable=True),
        sa.Column('host', sa.String(length=255), nullable=True),
        sa.Column('node', sa.String(length=255), nullable=True),
        sa.Column('availability_zone', sa.String(length=255), nullable=True),
        sa.Column('flavor', sa.Text(), nullable=False),
        sa.Column('memory_mb', sa.Integer(), nullable=False),
        sa.Column('vcpus', sa.Integer(), nullable=False),
        sa.Column('vm_state', sa.String(length=255), nullable=False),
        sa.Column('task_state', sa.String(length=255), nullable=True),
        sa.Column('power_state', sa.Integer(), nullable=False),
        sa.Column('launched_at', sa.DateTime(), nullable=True),
        sa.Column('terminated_at', sa.DateTime(), nullable=True),
        sa.Column('locked', sa.Boolean(), nullable=False),
        sa.Column('metadata', sa.Text(), nullable=True),
        sa.Column('fault', sa.Text(), nullable=True),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.Column('deleted_at', sa.DateTime(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint('uuid')
    )
    with op.batch_alter_table('instances', schema=None) as batch_op:
        batch_op.create_index(
            'instances_host_deleted_idx', ['host', 'deleted'], unique=False)
        batch_op.create_index(
            'instances_project_created_idx',
            ['project_id', 'deleted', 'created_at'], unique=False)

    op.create_table(
        'services',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('uuid', sa.String(length=36), nullable=False),
        sa.Column('host', sa.String(length=255), nullable=False),
        sa.Column('binary', sa.String(length=255), nullable=False),
        sa.Column('topic', sa.String(length=255), nullable=True),
        sa.Column('availability_zone', sa.String(length=255), nullable=True),
        sa.Column('disabled', sa.Boolean(), nullable=False),
        sa.Column('disabled_reason', sa.String(length=255), nullable=True),
        sa.Column('forced_down', sa.Boolean(), nullable=False),
        sa.Column('report_count', sa.Integer(), nullable=False),
        sa.Column('heartbeat_at', sa.DateTime(), nullable=True),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('rpc_current_version', sa.String(length=36), nullable=True),
        sa.Column('hypervisor_hostname', sa.String(length=255), nullable=True),
        sa.Column('host_ip', sa.String(length=64), nullable=True),
        sa.Column('stats', sa.Text(), nullable=True),
        sa.Column('traits', sa.Text(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint(
            'host', 'binary', name='uniq_services0host0binary'),
        sa.UniqueConstraint('uuid', name='uniq_services0uuid')
    )
    op.create_table(
        'block_device_mapping',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('uuid', sa.String(length=36), nullable=False),
        sa.Column('instance_uuid', sa.String(length=36), nullable=False),
        sa.Column('volume_id', sa.String(length=36), nullable=False),
        sa.Column('attachment_id', sa.String(length=36), nullable=True),
        sa.Column('device_name', sa.String(length=255), nullable=True),
        sa.Column('boot_index', sa.Integer(), nullable=True),
        sa.Column('delete_on_termination', sa.Boolean(), nullable=False),
        sa.Column('tag', sa.String(length=255), nullable=True),
        sa.Column('volume_size', sa.Integer(), nullable=True),
        sa.Column('status', sa.String(length=255), nullable=False),
        sa.Column('connection_info', sa.Text(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ['instance_uuid'], ['instances.uuid'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint(
            'instance_uuid', 'volume_id',
            name='uniq_bdm0instance_uuid0volume_id'),
        sa.UniqueConstraint('uuid')
    )
    with op.batch_alter_table('block_device_mapping', schema=None) as batch_op:
        batch_op.create_index(
            'block_device_mapping_volume_id_idx', ['volume_id'], unique=False)

    op.create_table(
        'instance_actions_events',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('action_id', sa.Integer(), nullable=False),
        sa.Column('event', sa.String(length=255), nullable=False),
        sa.Column('start_time', sa.DateTime(), nullable=False),
        sa.Column('finish_time', sa.DateTime(), nullable=True),
        sa.Column('result', sa.String(length=255), nullable=True),
        sa.Column('traceback', sa.Text(), nullable=True),
        sa.Column('details', sa.Text(), nullable=True),
        sa.Column('host', sa.String(length=255), nullable=True),
        sa.ForeignKeyConstraint(
            ['action_id'], ['instance_actions.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table(
            'instance_actions_events', schema=None) as batch_op:
        batch_op.create_index(
            'instance_actions_events_action_id_idx', ['action_id'],
            unique=False)

    # Flavors small enough for TCG guests without an OS, so that a new
    # cloud can boot a server at once; an admin may delete them.
    flavors = sa.table(
        'flavors',
        sa.column('flavorid', sa.String), sa.column('name', sa.String),
        sa.column('memory_mb', sa.Integer), sa.column('vcpus', sa.Integer),
        sa.column('root_gb', sa.Integer), sa.column('ephemeral_gb',
                                                    sa.Integer),
        sa.column('swap', sa.Integer), sa.column('rxtx_factor', sa.Float),
        sa.column('is_public', sa.Boolean), sa.column('disabled',
                                                      sa.Boolean),
        sa.column('description', sa.Text),
        sa.column('created_at', sa.DateTime))
    now = datetime.datetime(2026, 11, 22)
    op.bulk_insert(flavors, [
        dict(flavorid=flavorid, name=name, memory_mb=memory_mb, vcpus=1,
             root_gb=1, ephemeral_gb=0, swap=0, rxtx_factor=1.0,
             is_public=True, disabled=False, description=description,
             created_at=now)
        for flavorid, name, memory_mb, description in (
            ('1', 'm1.nano', 64, '64 MiB, 1 vCPU'),
            ('2', 'm1.micro', 128, '128 MiB, 1 vCPU'),
            ('3', 'm1.small', 256, '256 MiB, 1 vCPU'),
        )])


def downgrade():
    for table in ('instance_actions_events', 'block_device_mapping',
                  'instance_actions', 'instances', 'services', 'flavors'):
        op.drop_table(table)
