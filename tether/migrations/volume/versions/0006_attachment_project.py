"""The project of an attachment in its own row (its volume's, copied
when the attachment is made), and an index of a project's attachments in
the order they are listed: a page of a project's list reads its 100
rows instead of joining every volume of the project.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from alembic import op
import sqlalchemy as sa

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('volume_attachment',
                  sa.Column('project_id', sa.String(255)))
    op.execute('UPDATE volume_attachment SET project_id = (SELECT '
               'volumes.project_id FROM volumes WHERE volumes.id = '
               'volume_attachment.volume_id)')
    with op.batch_alter_table('volume_attachment') as batch:
        batch.alter_column('project_id', existing_type=sa.String(255),
                           nullable=False)
    op.create_index('volume_attachment_project_created_idx',
                    'volume_attachment', ['project_id', 'created_at', 'id'])


def downgrade():
    op.drop_index('volume_attachment_project_created_idx',
                  'volume_attachment')
    with op.batch_alter_table('volume_attachment') as batch:
        batch.drop_column('project_id')
