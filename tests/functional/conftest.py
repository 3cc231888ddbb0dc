"""Fixtures of the functional tests: one tether-aio per test process."""

import time

import pytest

from tests.functional import fixtures
# Fixtures of other modules, for every functional test.
from tests.functional.image_helpers import image_transfer  # noqa: F401


@pytest.fixture(scope='session')
def aio(tmp_path_factory):
    with fixtures.running_aio(tmp_path_factory.mktemp('tether')) as aio:
        yield aio


@pytest.fixture
def user(aio):
    """An SDK connection for a fresh member of a fresh project."""
    return aio.sdk()


@pytest.fixture
def admin(aio):
    return aio.admin()


def wait_for(predicate, timeout=30, interval=0.02, what='condition'):
    """Poll ``predicate`` until it returns a true value; return that."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError('timed out waiting for %s' % what)
        time.sleep(interval)


@pytest.fixture
def wait():
    return wait_for


def _notifications():
    from oslo_messaging.notify import _impl_test
    return [m for _c, m, _p, _r in _impl_test.NOTIFICATIONS]


@pytest.fixture
def notifications():
    """oslo.messaging's test driver: what this process (the aio) sends."""
    from oslo_config import cfg
    from oslo_messaging.notify import _impl_test
    from tether import rpc
    conf = cfg.CONF
    rpc.get_notifier('compute.test')
    conf.set_override('driver', ['test'],
                      group='oslo_messaging_notifications')
    rpc.NOTIFIER = None
    _impl_test.reset()
    yield _notifications
    conf.clear_override('driver', group='oslo_messaging_notifications')
    rpc.NOTIFIER = None
