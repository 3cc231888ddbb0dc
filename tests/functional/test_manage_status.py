"""tether-manage status upgrade check, run as an operator runs it, against
SQLite databases: its results and its exit code (0, 1 warning, 2
failure)."""

import json
import shutil

import pytest
import sqlalchemy as sa

from tests.functional import helpers
from tether.cmd import status
from tether.compute import manager as compute_manager

SUCCESS, WARNING, FAILURE = 0, 1, 2


def _write_config(path):
    policy_file = path / 'policy.yaml'
    policy_file.write_text('')
    config = path / 'tether.conf'
    config.write_text(
        '[DEFAULT]\nstate_path = %(d)s\n\n'
        '[database]\nconnection = sqlite:///%(d)s/volume.sqlite\n\n'
        '[compute_database]\nconnection = sqlite:///%(d)s/compute.sqlite\n\n'
        # An absolute path: no policy.yaml of this machine is looked up.
        '[oslo_policy]\npolicy_file = %(p)s\n'
        % {'d': path, 'p': policy_file})
    return config, policy_file


def _manage(config, *args):
    return helpers.run_manage(config, *args)


@pytest.fixture(scope='module')
def migrated(tmp_path_factory):
    """A directory with both databases at head, to copy from."""
    path = tmp_path_factory.mktemp('migrated')
    config, _policy = _write_config(path)
    result = _manage(config, 'db', 'sync', '--database', 'all')
    assert result.returncode == 0, result.stderr
    return path


@pytest.fixture
def deployment(tmp_path, migrated):
    """A configuration, its policy file (empty: the defaults apply) and
    no databases yet; ``sync(database)`` puts one at head,
    ``run(*args)`` runs tether-manage."""
    config, policy_file = _write_config(tmp_path)

    class Deployment:
        path = tmp_path
        policy = policy_file

        @staticmethod
        def run(*args):
            return _manage(config, *args)

        @classmethod
        def check(cls):
            """(exit code, {check name: (result, details)})."""
            result = cls.run('status', 'upgrade', 'check', '--json')
            assert result.returncode in (SUCCESS, WARNING, FAILURE), (
                result.stdout + result.stderr)
            checks = json.loads(result.stdout)['checks']
            return result.returncode, {c['check']: (c['result'],
                                                    c['details'])
                                       for c in checks}

        @staticmethod
        def sync(database='all'):
            """Copy the migrated database (and its WAL, if any)."""
            names = ['volume', 'compute'] if database == 'all' else [database]
            for name in names:
                for f in migrated.glob('%s.sqlite*' % name):
                    shutil.copy(f, tmp_path / f.name)

    return Deployment


def _add_compute_service(path, host, version):
    engine = sa.create_engine('sqlite:///%s' % (path / 'compute.sqlite'))
    with engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO services (created_at, uuid, host, binary, topic, "
            "disabled, forced_down, report_count, version) VALUES "
            "(CURRENT_TIMESTAMP, :uuid, :host, 'tether-compute', "
            "'tether-compute', 0, 0, 0, :version)"),
            {'uuid': 'uuid-%s' % host, 'host': host, 'version': version})
    engine.dispose()


def test_at_head_every_check_succeeds(deployment):
    deployment.sync()
    _add_compute_service(deployment.path, 'compute-current',
                         compute_manager.SERVICE_VERSION)
    code, checks = deployment.check()
    assert code == SUCCESS, checks
    assert {name: result for name, (result, _d) in checks.items()} == {
        'Volume database schema': SUCCESS,
        'Compute database schema': SUCCESS,
        'Compute service versions': SUCCESS,
        'Policy file': SUCCESS}
    # Without --json: the table of oslo.upgradecheck, the same exit code.
    result = deployment.run('status', 'upgrade', 'check')
    assert result.returncode == SUCCESS
    assert 'Check: Compute service versions' in result.stdout
    assert 'Result: Success' in result.stdout
    assert 'Result: Warning' not in result.stdout


@pytest.mark.parametrize('missing', ['volume', 'compute'])
def test_a_database_not_migrated_fails_and_is_named(deployment, missing):
    other = {'volume': 'compute', 'compute': 'volume'}[missing]
    deployment.sync(other)
    code, checks = deployment.check()
    assert code == FAILURE
    result, details = checks['%s database schema' % missing.capitalize()]
    assert result == FAILURE
    assert 'The %s database' % missing in details
    assert 'tether-manage db sync --database %s' % missing in details
    assert checks['%s database schema' % other.capitalize()][0] == SUCCESS


def test_an_old_database_revision_fails(deployment):
    # tether-manage itself: migrate the volume database to its first
    # revision only.
    deployment.sync('compute')
    result = deployment.run('db', 'sync', '0001', '--database', 'volume')
    assert result.returncode == 0, result.stderr
    code, checks = deployment.check()
    assert code == FAILURE
    result, details = checks['Volume database schema']
    assert result == FAILURE
    assert 'is at revision 0001' in details


def test_an_old_compute_service_is_a_warning_naming_its_host(deployment):
    deployment.sync()
    _add_compute_service(deployment.path, 'compute-current',
                         compute_manager.SERVICE_VERSION)
    _add_compute_service(deployment.path, 'compute-old',
                         status.MIN_COMPUTE_SERVICE_VERSION - 1)
    code, checks = deployment.check()
    assert code == WARNING
    result, details = checks['Compute service versions']
    assert result == WARNING
    assert 'compute-old (version %d)' % (
        status.MIN_COMPUTE_SERVICE_VERSION - 1) in details
    assert 'compute-current' not in details


def test_a_compute_service_behind_this_release_but_supported(deployment):
    deployment.sync()
    _add_compute_service(deployment.path, 'compute-current',
                         compute_manager.SERVICE_VERSION)
    if compute_manager.SERVICE_VERSION > status.MIN_COMPUTE_SERVICE_VERSION:
        _add_compute_service(deployment.path, 'compute-behind',
                             status.MIN_COMPUTE_SERVICE_VERSION)
    code, checks = deployment.check()
    assert code == SUCCESS, checks
    result, details = checks['Compute service versions']
    assert result == SUCCESS
    assert 'compute-current' not in details
    if compute_manager.SERVICE_VERSION > status.MIN_COMPUTE_SERVICE_VERSION:
        assert 'compute-behind (version %d)' % (
            status.MIN_COMPUTE_SERVICE_VERSION) in details


def test_policy_file_with_an_unknown_rule_is_a_warning(deployment):
    deployment.sync()
    deployment.policy.write_text(
        '"volume:create": "rule:my_admins"\n'
        '"my_admins": "role:admin"\n'          # an alias: used, so fine
        '"volume:craete": "role:admin"\n')     # a typo: changes nothing
    code, checks = deployment.check()
    assert code == WARNING
    result, details = checks['Policy file']
    assert result == WARNING
    assert 'volume:craete' in details
    assert 'my_admins' not in details


@pytest.mark.parametrize('text,expected', [
    ('"volume:create": [rule:admin_api\n', 'cannot be read'),
    ('"volume:create": "rule:no_such_rule"\n', 'no_such_rule'),
])
def test_policy_file_that_breaks_rules_fails(deployment, text, expected):
    deployment.sync()
    deployment.policy.write_text(text)
    code, checks = deployment.check()
    assert code == FAILURE
    result, details = checks['Policy file']
    assert result == FAILURE
    assert expected in details
