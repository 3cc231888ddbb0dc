"""The volume database: migrations walk up, and agree with the models."""

import pprint
import subprocess
import sys

import sqlalchemy as sa
from alembic import command as alembic_command
from alembic import migration as alembic_migration
from alembic import script as alembic_script
from alembic.autogenerate import compare_metadata

from tether.db import migration
from tether.db import models


def _engine(tmp_path, name='volume.sqlite'):
    return sa.create_engine('sqlite:///%s' % (tmp_path / name))


def _revisions():
    """Every revision from the first to head."""
    config = migration._alembic_config(None)
    scripts = alembic_script.ScriptDirectory.from_config(config)
    return [s.revision for s in reversed(list(scripts.walk_revisions()))]


def test_migrations_walk_up_one_by_one(tmp_path):
    engine = _engine(tmp_path)
    revisions = _revisions()
    assert revisions, 'no migrations found'
    assert migration.db_version(engine) is None
    for revision in revisions:
        with engine.begin() as conn:
            alembic_command.upgrade(migration._alembic_config(conn),
                                    revision)
        assert migration.db_version(engine) == revision
    tables = set(sa.inspect(engine).get_table_names())
    assert set(models.Base.metadata.tables) <= tables
    # Running it again at head changes nothing.
    migration.db_sync(engine=engine)
    assert migration.db_version(engine) == revisions[-1]


def test_initial_migration_creates_the_default_volume_type(tmp_path):
    engine = _engine(tmp_path)
    migration.db_sync(engine=engine)
    with engine.connect() as conn:
        names = conn.execute(sa.text('SELECT name FROM volume_types'))
        assert '__DEFAULT__' in {n for (n,) in names}


def test_models_match_migrations(tmp_path):
    engine = _engine(tmp_path)
    migration.db_sync(engine=engine)
    with engine.connect() as conn:
        context = alembic_migration.MigrationContext.configure(
            conn, opts={'compare_type': True,
                        'compare_server_default': True})
        diff = compare_metadata(context, models.Base.metadata)
    assert diff == [], pprint.pformat(diff)


def test_tether_manage_db_sync_and_version(tmp_path):
    db = tmp_path / 'manage.sqlite'
    config = tmp_path / 'tether.conf'
    config.write_text('[DEFAULT]\nstate_path = %s\n\n[database]\n'
                      'connection = sqlite:///%s\n' % (tmp_path, db))
    head = _revisions()[-1]

    def manage(*args):
        return subprocess.run(
            # This tree's tether-manage, whatever is on PATH.
            [sys.executable, '-c',
             'import sys; from tether.cmd import manage; '
             'sys.exit(manage.main())', '--config-file', str(config)]
            + list(args),
            capture_output=True, text=True, timeout=60)

    def last_line(result):
        # oslo.log writes to stdout too; the answer is the last line.
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout.strip().splitlines()[-1]

    assert last_line(manage('db', 'version')) == 'None'
    assert last_line(manage('db', 'sync')) == \
        'Database is at revision %s' % head
    assert last_line(manage('db', 'version')) == head
    assert 'volumes' in sa.inspect(
        sa.create_engine('sqlite:///%s' % db)).get_table_names()
