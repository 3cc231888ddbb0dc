"""Run the alembic migrations of the volume database."""

import os

from alembic import command as alembic_command
from alembic import config as alembic_config
from alembic import migration as alembic_migration

from tether.db import session

_SCRIPT_LOCATION = os.path.join(os.path.dirname(__file__), os.pardir,
                                'migrations', 'volume')


def _alembic_config(connection):
    cfg = alembic_config.Config()
    cfg.set_main_option('script_location', os.path.abspath(_SCRIPT_LOCATION))
    cfg.attributes['connection'] = connection
    return cfg


def db_sync(version='head', engine=None):
    """Upgrade the database to ``version``."""
    engine = engine or session.get_engine()
    with engine.begin() as connection:
        alembic_command.upgrade(_alembic_config(connection), version)


def db_version(engine=None):
    engine = engine or session.get_engine()
    with engine.connect() as connection:
        return alembic_migration.MigrationContext.configure(
            connection).get_current_revision()
