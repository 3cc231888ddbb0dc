"""QoS specs (and the one a volume type may have), user messages, and
the frozen flag of a volume service.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'quality_of_service_specs',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('name', sa.String(255), nullable=False, unique=True),
        sa.Column('consumer', sa.String(255), nullable=False),
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
    )
    op.create_table(
        'quality_of_service_specs_items',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('qos_specs_id', sa.String(36),
                  sa.ForeignKey('quality_of_service_specs.id',
                                ondelete='CASCADE'),
                  nullable=False),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.String(255)),
        sa.UniqueConstraint('qos_specs_id', 'key',
                            name='uniq_qos_specs_items0qos_specs_id0key'),
    )
    with op.batch_alter_table('volume_types') as batch:
        batch.add_column(sa.Column('qos_specs_id', sa.String(36)))
        batch.create_index('ix_volume_types_qos_specs_id', ['qos_specs_id'])
        batch.create_foreign_key(
            'volume_types_qos_specs_id_fkey', 'quality_of_service_specs',
            ['qos_specs_id'], ['id'], ondelete='RESTRICT')
    op.create_table(
        'messages',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('request_id', sa.String(255)),
        sa.Column('resource_type', sa.String(36)),
        sa.Column('resource_uuid', sa.String(255)),
        sa.Column('event_id', sa.String(255), nullable=False),
        sa.Column('message_level', sa.String(255), nullable=False),
        sa.Column('action_id', sa.String(10)),
        sa.Column('detail_id', sa.String(10)),
        sa.Column('expires_at', sa.DateTime, nullable=False),
        sa.Column('created_at', sa.DateTime, nullable=False),
        sa.Column('updated_at', sa.DateTime),
    )
    op.create_index('messages_project_created_idx', 'messages',
                    ['project_id', 'created_at', 'id'])
    op.create_index('messages_created_idx', 'messages', ['created_at', 'id'])
    op.create_index('messages_expires_idx', 'messages', ['expires_at'])
    with op.batch_alter_table('services') as batch:
        batch.add_column(sa.Column('frozen', sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('services') as batch:
        batch.drop_column('frozen')
    op.drop_table('messages')
    with op.batch_alter_table('volume_types') as batch:
        batch.drop_constraint('volume_types_qos_specs_id_fkey',
                              type_='foreignkey')
        batch.drop_index('ix_volume_types_qos_specs_id')
        batch.drop_column('qos_specs_id')
    op.drop_table('quality_of_service_specs_items')
    op.drop_table('quality_of_service_specs')
