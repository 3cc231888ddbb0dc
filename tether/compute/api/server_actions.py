"""The actions of a server in the API process: the power actions
(os-start, os-stop, reboot); rebuild and console output have modules of
their own (rebuild.py, console_output.py).
"""

from tether.compute.api import servers
from tether.compute import rpcapi as compute_rpcapi
from tether.db.compute import instance as db_instances
from tether.db.compute import instance_action as db_actions
from tether.objects import fields

VmState = fields.VmState
TaskState = fields.TaskState
Action = fields.InstanceAction


def _power(context, instance, action, vm_states, task_state, cast):
    servers.check_host(instance, action)
    instance = db_instances.update(
        context, instance.uuid, {'task_state': task_state},
        expected_vm_state=vm_states, expected_task_state=None,
        action=action)
    db_actions.action_start(context, instance.uuid, action)
    cast(context, instance)


def start(context, instance):
    _power(context, instance, Action.START, (VmState.STOPPED,),
           TaskState.POWERING_ON, compute_rpcapi.get().start_instance)


def stop(context, instance):
    _power(context, instance, Action.STOP, (VmState.ACTIVE, VmState.ERROR),
           TaskState.POWERING_OFF, compute_rpcapi.get().stop_instance)


def reboot(context, instance, reboot_type):
    if reboot_type == 'SOFT':
        states, task = (VmState.ACTIVE,), TaskState.REBOOTING
    else:
        states = (VmState.ACTIVE, VmState.STOPPED, VmState.ERROR)
        task = TaskState.REBOOTING_HARD

    def cast(ctxt, inst):
        compute_rpcapi.get().reboot_instance(ctxt, inst, reboot_type)
    _power(context, instance, Action.REBOOT, states, task, cast)
