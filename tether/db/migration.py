"""Run the alembic migrations of the volume and compute databases."""

import os

from alembic import command as alembic_command
from alembic import config as alembic_config
from alembic import migration as alembic_migration

from tether.db import session

_MIGRATIONS = os.path.join(os.path.dirname(__file__), os.pardir,
                           'migrations')
# Each service database has its own tree of migrations.
DATABASES = {
    'volume': session.VOLUME,
    'compute': session.COMPUTE,
}


def _alembic_config(connection, database='volume'):
    cfg = alembic_config.Config()
    cfg.set_main_option('script_location',
                        os.path.abspath(os.path.join(_MIGRATIONS, database)))
    cfg.attributes['connection'] = connection
    return cfg


def db_sync(version='head', engine=None, database='volume'):
    """Upgrade the database of service ``database`` to ``version``."""
    engine = engine or DATABASES[database].get_engine()
    with engine.begin() as connection:
        alembic_command.upgrade(_alembic_config(connection, database),
                                version)


def db_version(engine=None, database='volume'):
    engine = engine or DATABASES[database].get_engine()
    with engine.connect() as connection:
        return alembic_migration.MigrationContext.configure(
            connection).get_current_revision()
