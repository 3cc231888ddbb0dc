"""tether-manage status upgrade check, run as an operator runs it, against
SQLite databases: its results and its exit code (0, 1 warning, 2
failure)."""

import json
import shutil

import pytest
import sqlalchemy as sa

from tests.functional import helpers
from tether.cmd import status
from tether.compute import version as compute_version
from tether.volume import version as volume_version

SUCCESS, WARNING, FAILURE = 0, 1, 2


def _write_config(path, extra=''):
    policy_file = path / 'policy.yaml'
    policy_file.write_text('')
    config = path / 'tether.conf'
    config.write_text(
        '[DEFAULT]\nstate_path = %(d)s\n\n'
        '[database]\nconnection = sqlite:///%(d)s/volume.sqlite\n\n'
        '[compute_database]\nconnection = sqlite:///%(d)s/compute.sqlite\n\n'
        # An absolute path: no policy.yaml of this machine is looked up.
        '[oslo_policy]\npolicy_file = %(p)s\n%(extra)s'
        % {'d': path, 'p': policy_file, 'extra': extra})
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
        def configure(extra):
            """Add ``extra`` (sections and options) to the config file."""
            _write_config(tmp_path, extra)

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


def _add_volume_service(path, host, rpc_version):
    engine = sa.create_engine('sqlite:///%s' % (path / 'volume.sqlite'))
    with engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO services (created_at, host, binary, topic, "
            "disabled, report_count, rpc_current_version) VALUES "
            "(CURRENT_TIMESTAMP, :host, 'tether-volume', 'tether-volume', "
            "0, 0, :version)"), {'host': host, 'version': rpc_version})
    engine.dispose()


def test_at_head_every_check_succeeds(deployment):
    deployment.sync()
    _add_compute_service(deployment.path, 'compute-current',
                         compute_version.SERVICE_VERSION)
    code, checks = deployment.check()
    assert code == SUCCESS, checks
    assert {name: result for name, (result, _d) in checks.items()} == {
        'Volume database schema': SUCCESS,
        'Compute database schema': SUCCESS,
        'Compute service versions': SUCCESS,
        'RPC version pins': SUCCESS,
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
                         compute_version.SERVICE_VERSION)
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
                         compute_version.SERVICE_VERSION)
    if compute_version.SERVICE_VERSION > status.MIN_COMPUTE_SERVICE_VERSION:
        _add_compute_service(deployment.path, 'compute-behind',
                             status.MIN_COMPUTE_SERVICE_VERSION)
    behind_rpc = compute_version.rpc_version_of(
        status.MIN_COMPUTE_SERVICE_VERSION)
    if behind_rpc != compute_version.RPC_API_VERSION:
        # Supported, but it speaks an older RPC version: an unpinned API
        # would send what it cannot read, which the pins check says, and
        # the rolling upgrade pins the compute API.
        code, checks = deployment.check()
        assert code == WARNING, checks
        assert checks['Compute service versions'][0] == SUCCESS
        result, details = checks['RPC version pins']
        assert result == WARNING
        assert 'compute-behind (%s)' % behind_rpc in details
        deployment.configure('\n[upgrade_levels]\ncompute = auto\n')
    code, checks = deployment.check()
    assert code == SUCCESS, checks
    result, details = checks['Compute service versions']
    assert result == SUCCESS
    assert 'compute-current' not in details
    if compute_version.SERVICE_VERSION > status.MIN_COMPUTE_SERVICE_VERSION:
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


# RPC version pins ([upgrade_levels]) against the services' versions.

def test_unpinned_with_services_of_this_release(deployment):
    deployment.sync()
    _add_volume_service(deployment.path, 'host1@nfs',
                        volume_version.RPC_API_VERSION)
    code, checks = deployment.check()
    result, details = checks['RPC version pins']
    assert result == SUCCESS, details
    assert ('[upgrade_levels] volume = (unset): the volume API sends '
            'tether-volume RPC version %s, which all 1 service(s) read.'
            % volume_version.RPC_API_VERSION) in details
    assert ('[upgrade_levels] compute = (unset): no tether-compute has '
            'registered.') in details


def test_unpinned_with_an_older_volume_service_is_a_warning(deployment):
    # The upgrade check of a new release, run while the managers of the
    # old one still run: tether-volume 1.0 reads no attachments.
    deployment.sync()
    _add_volume_service(deployment.path, 'new@nfs',
                        volume_version.RPC_API_VERSION)
    _add_volume_service(deployment.path, 'old@nfs', '1.0')
    code, checks = deployment.check()
    assert code == WARNING
    result, details = checks['RPC version pins']
    assert result == WARNING
    assert 'which these older services do not understand: old@nfs (1.0). ' \
        'Set it to "auto" (or 1.0)' in details
    assert 'new@nfs' not in details


@pytest.mark.parametrize('level,expected', [
    ('auto', 'the volume API sends tether-volume RPC version 1.0, which '
             'all 2 service(s) read.'),
    ('1.0', 'the volume API sends tether-volume RPC version 1.0, which '
            'all 2 service(s) read.'),
])
def test_pinned_to_the_oldest_service(deployment, level, expected):
    deployment.sync()
    _add_volume_service(deployment.path, 'new@nfs',
                        volume_version.RPC_API_VERSION)
    _add_volume_service(deployment.path, 'old@nfs', '1.0')
    deployment.configure('\n[upgrade_levels]\nvolume = %s\n' % level)
    code, checks = deployment.check()
    result, details = checks['RPC version pins']
    assert result == SUCCESS, details
    assert '[upgrade_levels] volume = %s: %s' % (level, expected) in details


def test_a_pin_left_after_the_upgrade(deployment):
    deployment.sync()
    _add_volume_service(deployment.path, 'host1@nfs',
                        volume_version.RPC_API_VERSION)
    _add_compute_service(deployment.path, 'compute1',
                         compute_version.SERVICE_VERSION)
    deployment.configure('\n[upgrade_levels]\nvolume = 1.0\n'
                         'compute = auto\n')
    code, checks = deployment.check()
    result, details = checks['RPC version pins']
    assert result == SUCCESS, details
    assert ('All are at %s, the version of this release: unset the pin '
            'to send it.' % volume_version.RPC_API_VERSION) in details
    assert ('[upgrade_levels] compute = auto: the compute API sends '
            'tether-compute RPC version %s' % compute_version.RPC_API_VERSION
            ) in details


def test_a_pin_this_release_cannot_send_fails(deployment):
    deployment.sync()
    _add_volume_service(deployment.path, 'host1@nfs',
                        volume_version.RPC_API_VERSION)
    deployment.configure('\n[upgrade_levels]\nvolume = 2.0\n')
    code, checks = deployment.check()
    assert code == FAILURE
    result, details = checks['RPC version pins']
    assert result == FAILURE
    assert ('[upgrade_levels] volume = 2.0: this code speaks tether-volume '
            'RPC versions %s.' % ', '.join(sorted(
                volume_version.RPC_OBJECT_VERSIONS))) in details
