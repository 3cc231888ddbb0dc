"""The alembic environment of both databases: each tree's env.py runs
:func:`run` with its service's models."""

from alembic import context
import sqlalchemy as sa


def run(target_metadata):
    """Run the migrations alembic was asked for, against the connection
    tether.db.migration hands over (or the configured URL)."""
    if context.is_offline_mode():
        _run_offline(target_metadata)
    else:
        _run_online(target_metadata)


def _run_offline(target_metadata):
    context.configure(url=context.config.get_main_option('sqlalchemy.url'),
                      target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _run_online(target_metadata):
    connection = context.config.attributes.get('connection')
    if connection is None:
        engine = sa.create_engine(
            context.config.get_main_option('sqlalchemy.url'))
        with engine.connect() as connection:
            _run(connection, target_metadata)
    else:
        _run(connection, target_metadata)


def _run(connection, target_metadata):
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
