"""The shared exception kinds: every class of tether.exception is in its
``__all__``, and each service's exception module names it again (the
same class), as the services' code expects."""

import pytest

from tether.compute import exception as compute_exception
from tether import exception
from tether.volume import exception as volume_exception


def _shared():
    return {name for name, obj in vars(exception).items()
            if isinstance(obj, type) and issubclass(obj, Exception)}


def test_all_lists_every_shared_kind():
    assert sorted(exception.__all__) == sorted(_shared())


@pytest.mark.parametrize('module', [compute_exception, volume_exception],
                         ids=['compute', 'volume'])
def test_each_service_names_every_shared_kind_again(module):
    for name in _shared():
        assert getattr(module, name) is getattr(exception, name), name
