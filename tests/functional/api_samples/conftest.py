"""Fixtures of the sample stories of compute hosts and what runs on them:
hosts and servers written through the compute database layer (the
compute tests' own makers), removed after the story."""

import pytest

from tests.functional.compute import conftest as compute_conftest


@pytest.fixture
def compute_hosts(aio):
    hosts = compute_conftest.Hosts()
    yield hosts
    hosts.remove()


@pytest.fixture
def instances(aio):
    made = compute_conftest.Servers()
    yield made
    made.remove()
