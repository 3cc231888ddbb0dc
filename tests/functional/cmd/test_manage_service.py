"""tether-manage service remove, run as an operator runs it: the record of
a gone service goes (and with it the version it held auto pins at)."""

import sqlalchemy as sa

# The deployment of the upgrade check's tests: a config and both
# databases at head.
from tests.functional.cmd.test_manage_status import _add_compute_service
from tests.functional.cmd.test_manage_status import _add_volume_service
from tests.functional.cmd.test_manage_status import deployment  # noqa: F401
from tests.functional.cmd.test_manage_status import migrated  # noqa: F401


def _hosts(path, database):
    engine = sa.create_engine('sqlite:///%s' % (path / database))
    with engine.connect() as connection:
        hosts = [h for (h,) in connection.execute(sa.text(
            'SELECT host FROM services ORDER BY host'))]
    engine.dispose()
    return hosts


def _beat(path, database, host):
    engine = sa.create_engine('sqlite:///%s' % (path / database))
    with engine.begin() as connection:
        connection.execute(sa.text(
            'UPDATE services SET heartbeat_at = CURRENT_TIMESTAMP '
            'WHERE host = :host'), {'host': host})
    engine.dispose()


def test_a_gone_volume_service_is_removed(deployment):  # noqa: F811
    deployment.sync()
    _add_volume_service(deployment.path, 'gone@nfs', '1.0')
    _add_volume_service(deployment.path, 'live@nfs', '1.1')
    _beat(deployment.path, 'volume.sqlite', 'live@nfs')
    result = deployment.run('service', 'remove', 'tether-volume', 'gone@nfs')
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'Removed the tether-volume service of host gone@nfs.' in \
        result.stdout
    assert _hosts(deployment.path, 'volume.sqlite') == ['live@nfs']
    # Gone already; and one that is up stays.
    result = deployment.run('service', 'remove', 'tether-volume', 'gone@nfs')
    assert result.returncode == 1
    assert 'No tether-volume service on host gone@nfs.' in result.stdout
    result = deployment.run('service', 'remove', 'tether-volume', 'live@nfs')
    assert result.returncode == 1
    assert 'is up' in result.stdout and 'stop it first' in result.stdout
    assert _hosts(deployment.path, 'volume.sqlite') == ['live@nfs']


def test_a_gone_compute_service_is_removed(deployment):  # noqa: F811
    deployment.sync()
    _add_compute_service(deployment.path, 'gone-compute', 1)
    result = deployment.run('service', 'remove', 'tether-compute',
                            'gone-compute')
    assert result.returncode == 0, result.stdout + result.stderr
    assert _hosts(deployment.path, 'compute.sqlite') == []
