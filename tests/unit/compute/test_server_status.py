"""The status filter of GET /servers selects what the views show."""

import itertools

import pytest

from tether.objects import fields
from tether.objects.compute import status as server_status


def _matches(filters, vm_state, task_state):
    for key, values in filters.items():
        if key == 'task_state_not':
            if task_state is not None and task_state in values:
                return False
        elif key == 'vm_state':
            if vm_state not in values:
                return False
        elif key == 'task_state':
            if task_state not in values:
                return False
        else:
            raise AssertionError('unexpected filter %s' % key)
    return True


@pytest.mark.parametrize('vm_state,task_state', itertools.product(
    fields.VmState.ALL, fields.TaskState.ALL + (None,)))
def test_each_server_has_the_one_status_its_filter_finds(vm_state,
                                                         task_state):
    status = server_status.server_status(vm_state, task_state)
    found = [name for name, filters
             in server_status.SERVER_STATUS_FILTERS.items()
             if _matches(filters, vm_state, task_state)]
    assert found == [status]
