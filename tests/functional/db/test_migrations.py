"""The volume and compute databases: migrations walk up, agree with the
models, and tether-manage runs them (as upstream, no downgrades)."""

import pprint

import pytest
import sqlalchemy as sa
from alembic import command as alembic_command
from alembic import migration as alembic_migration
from alembic import script as alembic_script
from alembic.autogenerate import compare_metadata

from tests.functional import helpers
from tether.db.compute import models as compute_models
from tether.db import migration
from tether.db.volume import models as volume_models

MODELS = {'volume': volume_models, 'compute': compute_models}
DATABASES = pytest.mark.parametrize('database', sorted(MODELS))


def _engine(tmp_path, name='test.sqlite'):
    return sa.create_engine('sqlite:///%s' % (tmp_path / name))


def _revisions(database):
    """Every revision from the first to head."""
    config = migration._alembic_config(None, database)
    scripts = alembic_script.ScriptDirectory.from_config(config)
    return [s.revision for s in reversed(list(scripts.walk_revisions()))]


@DATABASES
def test_migrations_walk_up_one_by_one(tmp_path, database):
    engine = _engine(tmp_path)
    revisions = _revisions(database)
    assert revisions, 'no migrations found'
    assert migration.db_version(engine, database) is None
    for revision in revisions:
        with engine.begin() as conn:
            alembic_command.upgrade(
                migration._alembic_config(conn, database), revision)
        assert migration.db_version(engine, database) == revision
    tables = set(sa.inspect(engine).get_table_names())
    assert set(MODELS[database].Base.metadata.tables) <= tables
    # Running it again at head changes nothing.
    migration.db_sync(engine=engine, database=database)
    assert migration.db_version(engine, database) == revisions[-1]


def test_initial_migration_creates_the_default_volume_type(tmp_path):
    engine = _engine(tmp_path)
    migration.db_sync(engine=engine, database='volume')
    with engine.connect() as conn:
        names = conn.execute(sa.text('SELECT name FROM volume_types'))
        assert '__DEFAULT__' in {n for (n,) in names}


def test_initial_migration_seeds_small_flavors(tmp_path):
    engine = _engine(tmp_path)
    migration.db_sync(engine=engine, database='compute')
    with engine.connect() as conn:
        rows = conn.execute(sa.text(
            'SELECT flavorid, name, memory_mb, vcpus FROM flavors '
            'ORDER BY memory_mb')).all()
    assert [tuple(r) for r in rows] == [('1', 'm1.nano', 64, 1),
                                        ('2', 'm1.micro', 128, 1),
                                        ('3', 'm1.small', 256, 1)]


@DATABASES
def test_models_match_migrations(tmp_path, database):
    engine = _engine(tmp_path)
    migration.db_sync(engine=engine, database=database)
    with engine.connect() as conn:
        context = alembic_migration.MigrationContext.configure(
            conn, opts={'compare_type': True,
                        'render_as_batch': True})
        diff = compare_metadata(context, MODELS[database].Base.metadata)
    assert diff == [], pprint.pformat(diff)


def test_tether_manage_db_sync_and_version(tmp_path):
    volume_db = tmp_path / 'volume.sqlite'
    compute_db = tmp_path / 'compute.sqlite'
    config = tmp_path / 'tether.conf'
    config.write_text(
        '[DEFAULT]\nstate_path = %s\n\n[database]\nconnection = '
        'sqlite:///%s\n\n[compute_database]\nconnection = sqlite:///%s\n'
        % (tmp_path, volume_db, compute_db))
    heads = {db: _revisions(db)[-1] for db in MODELS}

    def manage(*args):
        return helpers.run_manage(config, *args, timeout=60)

    def lines(result):
        # oslo.log writes to stderr; the answers are on stdout.
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout.strip().splitlines()

    assert lines(manage('db', 'version')) == ['None']
    assert lines(manage('db', 'sync')) == [
        'The volume database is at revision %s' % heads['volume']]
    assert lines(manage('db', 'version')) == [heads['volume']]
    assert lines(manage('db', 'version', '--database', 'compute')) == \
        ['None']
    assert lines(manage('db', 'sync', '--database', 'all')) == [
        'The compute database is at revision %s' % heads['compute'],
        'The volume database is at revision %s' % heads['volume']]
    assert lines(manage('db', 'version', '--database', 'all')) == [
        'compute: %s' % heads['compute'], 'volume: %s' % heads['volume']]
    assert 'volumes' in sa.inspect(
        sa.create_engine('sqlite:///%s' % volume_db)).get_table_names()
    assert 'instances' in sa.inspect(
        sa.create_engine('sqlite:///%s' % compute_db)).get_table_names()
    result = manage('db', 'sync', '--database', 'nova')
    assert result.returncode != 0
    assert 'nova' in result.stderr


def test_attachments_take_the_project_of_their_volume(tmp_path):
    """Volume migration 0006 copies each attachment's project from its
    volume, and the column is NOT NULL afterwards."""
    engine = _engine(tmp_path)
    migration.db_sync('0005', engine=engine, database='volume')
    with engine.begin() as conn:
        type_id = conn.exec_driver_sql(
            'SELECT id FROM volume_types').scalar()
        for volume_id, project in (('v1', 'p1'), ('v2', 'p2')):
            conn.exec_driver_sql(
                "INSERT INTO volumes (id, project_id, size, status, "
                "attach_status, volume_type_id, bootable, multiattach, "
                "use_quota, created_at) VALUES (?, ?, 1, 'in-use', "
                "'attached', ?, 0, 0, 1, '2026-11-24')",
                (volume_id, project, type_id))
            conn.exec_driver_sql(
                "INSERT INTO volume_attachment (id, volume_id, "
                "attach_status, created_at) VALUES (?, ?, 'attached', "
                "'2026-11-24')", ('a-' + volume_id, volume_id))
    migration.db_sync(engine=engine, database='volume')
    with engine.connect() as conn:
        rows = dict(conn.exec_driver_sql(
            'SELECT id, project_id FROM volume_attachment').all())
    assert rows == {'a-v1': 'p1', 'a-v2': 'p2'}
    columns = {c['name']: c for c in
               sa.inspect(engine).get_columns('volume_attachment')}
    assert columns['project_id']['nullable'] is False


def test_the_servers_and_key_pairs_are_counted(tmp_path):
    """Compute migration 0010 counts the instances, cores and ram of the
    servers not deleted, per project and per user of it, and keeps the
    key pair counts of their users."""
    engine = _engine(tmp_path)
    migration.db_sync('0009', engine=engine, database='compute')
    servers = [('s1', 'p1', 'u1', 1, 64, False),
               ('s2', 'p1', 'u1', 2, 128, False),
               ('s3', 'p1', 'u2', 1, 64, False),
               ('s4', 'p1', 'u2', 4, 512, True),
               ('s5', 'p2', 'u1', 1, 64, False)]
    with engine.begin() as conn:
        for uuid, project, user, vcpus, memory_mb, deleted in servers:
            conn.exec_driver_sql(
                "INSERT INTO instances (uuid, project_id, user_id, flavor, "
                "memory_mb, vcpus, vm_state, power_state, locked, deleted, "
                "created_at) VALUES (?, ?, ?, '{}', ?, ?, 'active', 1, 0, "
                "?, '2026-11-27')",
                (uuid, project, user, memory_mb, vcpus, deleted))
        conn.exec_driver_sql(
            "INSERT INTO quota_usages (resource, scope, in_use, created_at) "
            "VALUES ('key_pairs', 'u1', 3, '2026-11-27')")
    migration.db_sync(engine=engine, database='compute')
    with engine.connect() as conn:
        rows = conn.exec_driver_sql(
            'SELECT resource, project_id, user_id, in_use '
            'FROM quota_usages').all()
    assert sorted(tuple(r) for r in rows) == sorted([
        ('key_pairs', '', 'u1', 3),
        ('instances', 'p1', '', 3), ('cores', 'p1', '', 4),
        ('ram', 'p1', '', 256),
        ('instances', 'p1', 'u1', 2), ('cores', 'p1', 'u1', 3),
        ('ram', 'p1', 'u1', 192),
        ('instances', 'p1', 'u2', 1), ('cores', 'p1', 'u2', 1),
        ('ram', 'p1', 'u2', 64),
        ('instances', 'p2', '', 1), ('cores', 'p2', '', 1),
        ('ram', 'p2', '', 64),
        ('instances', 'p2', 'u1', 1), ('cores', 'p2', 'u1', 1),
        ('ram', 'p2', 'u1', 64)])
