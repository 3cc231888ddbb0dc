"""An index of attachments in the order they are listed (newest first,
id breaking ties): a page of an admin's list of every project's
attachments reads 100 rows of it instead of sorting every attachment.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('volume_attachment_created_idx', 'volume_attachment',
                    ['created_at', 'id'])


def downgrade():
    op.drop_index('volume_attachment_created_idx', 'volume_attachment')
