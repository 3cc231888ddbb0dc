"""Fixtures of more than one test suite."""

from oslo_config import cfg
import pytest

from tests import guest_images as guest_image_builder
# The hooks of tests/no_skips.py (TETHER_TESTS_NO_SKIPS).
from tests.no_skips import pytest_make_collect_report  # noqa: F401
from tests.no_skips import pytest_runtest_makereport  # noqa: F401
from tether import rpc

CONF = cfg.CONF


@pytest.fixture
def levels():
    """Set ``[upgrade_levels]`` options (the RPC pinning tests, unit and
    functional); every pin is forgotten before and after."""
    rpc.reset_version_pins()
    names = []

    def set_level(name, value):
        names.append(name)
        CONF.set_override(name, value, group='upgrade_levels')

    yield set_level
    for name in names:
        CONF.clear_override(name, group='upgrade_levels')
    rpc.reset_version_pins()


@pytest.fixture(scope='session')
def guest_images():
    """{marker: path} of the tiny guest's raw images, ``tether-tiny-a``
    and ``tether-tiny-b`` (tests/guest_images.py); skips when they cannot
    be built here."""
    return guest_image_builder.images()
