"""The policy matrix's world: project A's resources, one per module."""

import pytest

from tests.functional import conftest
from tests.functional.policy import world as world_mod


@pytest.fixture(scope='module')
def world(aio):
    made = world_mod.World(aio, conftest.wait_for)
    made.build()
    yield made
    made.cleanup(made.created)
