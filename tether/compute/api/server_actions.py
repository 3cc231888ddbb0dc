"""The actions of a server in the API process: the power actions
(os-start, os-stop, reboot) and its console output (os-getConsoleOutput).
"""

import re

import oslo_messaging as messaging

from tether.compute.api import servers
from tether.compute import exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import scheduler
from tether.compute import version as compute_version
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


# Control characters a console output loses (all but tab and newline), as
# Nova strips them: carriage returns, escape sequences, NULs.
_CONTROL = re.compile('[\x00-\x08\x0b-\x1f]')
_CONSOLE_OUTPUT = 'get_console_output'


def console_output(context, instance, lines=None):
    """The last ``lines`` lines (None: all the host keeps, the last 100
    KiB) of what the guest of a running server wrote to its console.

    A server that is not running (no host, not ``active``) is refused,
    and so is a host whose tether-compute is older than console output.
    """
    servers.check_host(instance, _CONSOLE_OUTPUT)
    if instance.vm_state != VmState.ACTIVE:
        raise exception.InstanceInvalidState(
            action=_CONSOLE_OUTPUT, instance_id=instance.uuid,
            attr='vm_state', state=instance.vm_state)
    found = scheduler.service_version(context, instance.host)
    needed = compute_version.CONSOLE_OUTPUT_SERVICE_VERSION
    if found < needed:
        raise exception.ComputeHostTooOld(
            host=instance.host, what='console output', version=found,
            needed=needed)
    try:
        output = compute_rpcapi.get().get_console_output(context, instance,
                                                         lines)
    except messaging.MessagingTimeout:
        raise exception.ComputeHostUnavailable(host=instance.host)
    return _CONTROL.sub('', output)
