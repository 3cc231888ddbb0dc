"""A server's status, as the compute API shows it and filters on it,
derived from its vm_state and task_state (Nova's mapping)."""

from tether.objects.fields import TaskState
from tether.objects.fields import VmState


# The task states of a rebuild: the server's status is REBUILD (from any
# vm_state it may be rebuilt from: active, stopped, error).
REBUILDS = (TaskState.REBUILDING, TaskState.REBUILD_BLOCK_DEVICE_MAPPING,
            TaskState.REBUILD_SPAWNING)


def server_status(vm_state, task_state):
    """The ``status`` of a server, from its states, as Nova maps them."""
    if vm_state == VmState.BUILDING:
        return 'BUILD'
    if vm_state == VmState.RESCUED:
        # Whatever its task (Nova's map has only a default for it).
        return 'RESCUE'
    if task_state in REBUILDS and vm_state != VmState.DELETED:
        return 'REBUILD'
    if vm_state == VmState.ERROR:
        return 'ERROR'
    if vm_state == VmState.DELETED:
        return 'DELETED'
    if task_state in (TaskState.REBOOTING_HARD,
                      TaskState.REBOOT_STARTED_HARD):
        return 'HARD_REBOOT'
    if task_state == TaskState.REBOOTING:
        return 'REBOOT'
    if vm_state == VmState.STOPPED:
        return 'SHUTOFF'
    if vm_state == VmState.PAUSED:
        return 'PAUSED'
    if vm_state == VmState.SUSPENDED:
        return 'SUSPENDED'
    return 'ACTIVE'


_REBOOTS = (TaskState.REBOOTING, TaskState.REBOOTING_HARD,
            TaskState.REBOOT_STARTED_HARD)
_REBOOTS_AND_REBUILDS = _REBOOTS + REBUILDS
# The vm_states whose status a reboot or a rebuild takes over.
_SETTLED = (VmState.ACTIVE, VmState.STOPPED, VmState.PAUSED,
            VmState.SUSPENDED)

# Server status (as a list filter) -> the instance filters that select
# exactly the servers server_status() gives that status ('task_state_not':
# no task, or one not in the list).
SERVER_STATUS_FILTERS = {
    'BUILD': {'vm_state': [VmState.BUILDING]},
    'ACTIVE': {'vm_state': [VmState.ACTIVE],
               'task_state_not': _REBOOTS_AND_REBUILDS},
    'HARD_REBOOT': {'vm_state': list(_SETTLED),
                    'task_state': [TaskState.REBOOTING_HARD,
                                   TaskState.REBOOT_STARTED_HARD]},
    'REBOOT': {'vm_state': list(_SETTLED),
               'task_state': [TaskState.REBOOTING]},
    'SHUTOFF': {'vm_state': [VmState.STOPPED],
                'task_state_not': _REBOOTS_AND_REBUILDS},
    'REBUILD': {'vm_state': list(_SETTLED) + [VmState.ERROR],
                'task_state': list(REBUILDS)},
    'PAUSED': {'vm_state': [VmState.PAUSED],
               'task_state_not': _REBOOTS_AND_REBUILDS},
    'SUSPENDED': {'vm_state': [VmState.SUSPENDED],
                  'task_state_not': _REBOOTS_AND_REBUILDS},
    'RESCUE': {'vm_state': [VmState.RESCUED]},
    'ERROR': {'vm_state': [VmState.ERROR], 'task_state_not': REBUILDS},
    'DELETED': {'vm_state': [VmState.DELETED]},
}
