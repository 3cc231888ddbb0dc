"""Compute quotas: the limits set for a project or for one user of it
(``/os-quota-sets``) and for a quota class (``/os-quota-class-sets``),
and usage counters that are per project and per user of a project.

``quota_usages.scope`` (the user of a key pair count) becomes two
columns, ``project_id`` and ``user_id``, '' where a counter is not of
one (key pairs: of a user, in no project; a project's instances: of no
one user). The instances, cores and ram of the servers that are not
deleted are counted here, per project and per user.

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


def _timestamps():
    return [sa.Column('created_at', sa.DateTime, nullable=False),
            sa.Column('updated_at', sa.DateTime)]


def upgrade():
    op.create_table(
        'quotas',
        *_timestamps(),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255), nullable=False,
                  server_default=''),
        sa.Column('resource', sa.String(255), nullable=False),
        sa.Column('hard_limit', sa.Integer, nullable=False),
        sa.UniqueConstraint(
            'project_id', 'user_id', 'resource',
            name='uniq_quotas0project_id0user_id0resource'),
    )
    op.create_table(
        'quota_classes',
        *_timestamps(),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('class_name', sa.String(255), nullable=False),
        sa.Column('resource', sa.String(255), nullable=False),
        sa.Column('hard_limit', sa.Integer, nullable=False),
        sa.UniqueConstraint('class_name', 'resource',
                            name='uniq_quota_classes0class_name0resource'),
    )
    with op.batch_alter_table('quota_usages') as batch:
        batch.add_column(sa.Column('project_id', sa.String(255),
                                   nullable=False, server_default=''))
        batch.add_column(sa.Column('user_id', sa.String(255),
                                   nullable=False, server_default=''))
    op.execute('UPDATE quota_usages SET user_id = scope')
    with op.batch_alter_table('quota_usages') as batch:
        batch.drop_constraint('uniq_quota_usages0resource0scope',
                              type_='unique')
        batch.drop_column('scope')
        batch.create_unique_constraint(
            'uniq_quota_usages0resource0project_id0user_id',
            ['resource', 'project_id', 'user_id'])
    _count_servers()


def _count_servers():
    """Count what the servers that are not deleted use: per project
    (user_id '') and per user of a project."""
    instances = sa.table(
        'instances', sa.column('project_id'), sa.column('user_id'),
        sa.column('vcpus'), sa.column('memory_mb'), sa.column('deleted'))
    usages = sa.table(
        'quota_usages', sa.column('created_at'), sa.column('resource'),
        sa.column('project_id'), sa.column('user_id'), sa.column('in_use'))
    bind = op.get_bind()
    live = instances.c.deleted == sa.false()
    for per_user in (False, True):
        keys = [instances.c.project_id]
        if per_user:
            keys.append(instances.c.user_id)
        rows = bind.execute(
            sa.select(*keys, sa.func.count(),
                      sa.func.sum(instances.c.vcpus),
                      sa.func.sum(instances.c.memory_mb))
            .where(live).group_by(*keys)).all()
        for row in rows:
            project_id = row[0]
            user_id = row[1] if per_user else ''
            count, vcpus, memory_mb = row[-3:]
            for resource, in_use in (('instances', count),
                                     ('cores', vcpus), ('ram', memory_mb)):
                bind.execute(usages.insert().values(
                    created_at=sa.func.current_timestamp(),
                    resource=resource, project_id=project_id,
                    user_id=user_id, in_use=int(in_use or 0)))


def downgrade():
    op.execute("DELETE FROM quota_usages WHERE resource != 'key_pairs'")
    with op.batch_alter_table('quota_usages') as batch:
        batch.add_column(sa.Column('scope', sa.String(255), nullable=False,
                                   server_default=''))
    op.execute('UPDATE quota_usages SET scope = user_id')
    with op.batch_alter_table('quota_usages') as batch:
        batch.drop_constraint(
            'uniq_quota_usages0resource0project_id0user_id', type_='unique')
        batch.drop_column('user_id')
        batch.drop_column('project_id')
        batch.create_unique_constraint('uniq_quota_usages0resource0scope',
                                       ['resource', 'scope'])
    op.drop_table('quota_classes')
    op.drop_table('quotas')
