"""The integration deployment, started once for the session.

tools/integration/deployment.py starts RabbitMQ, PostgreSQL, Keystone,
Glance, libvirt and the tether daemons as separate processes; the tests
drive them with the ``openstack`` CLI and openstacksdk over Keystone
tokens. At the end everything is stopped, and the session fails if a
process of the deployment, or a guest of one of its servers, is still
there.

``TETHER_INTEGRATION_KEEP=1`` keeps the scratch directory (logs,
configuration) after the session; its logs are printed when a test failed.
"""

import os
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

from integration import deployment as int_deployment  # noqa: E402

from tests.integration import clients  # noqa: E402


def pytest_collection_modifyitems(config, items):
    # The resilience tests restart the broker and the services: they run
    # last, so that a failure there cannot take the others with it.
    # Tempest runs before them, on the deployment as it started.
    items.sort(key=lambda item: ('test_resilience' in item.nodeid,
                                 'test_tempest' in item.nodeid))


TIMINGS = {}
# The summary line of each Tempest run (test_tempest.py).
TEMPEST = []


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.write_line(
            'integration deployment: ' + ', '.join(
                '%s %.1fs' % item for item in TIMINGS.items()))
    for line in TEMPEST:
        terminalreporter.write_line(line)


@pytest.fixture(scope='session')
def deployment(request):
    if os.geteuid() != 0:
        pytest.skip('the integration deployment runs as root '
                    '(RabbitMQ, PostgreSQL and libvirt)')
    dep = int_deployment.Deployment()
    dep.timings = TIMINGS
    dep.start()
    try:
        yield dep
    finally:
        if request.session.testsfailed:
            sys.stderr.write('\n' + dep.log_tails() + '\n')
        keep = bool(os.environ.get('TETHER_INTEGRATION_KEEP'))
        # Raises if a process of the deployment, or a guest of one of its
        # servers, was still there (it is then stopped or removed).
        t0 = time.monotonic()
        dep.stop(remove=not keep)
        TIMINGS['stop'] = time.monotonic() - t0
        if keep:
            sys.stderr.write('integration: kept %s\n' % dep.dir)


@pytest.fixture(scope='session')
def cloud(deployment):
    return clients.Cloud(deployment)
