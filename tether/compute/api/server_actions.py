"""The actions of a server in the API process: the power actions
(os-start, os-stop, reboot), lock and unlock, pause and unpause, suspend
and resume; rebuild and console output have modules of their own
(rebuild.py, console_output.py).
"""

from oslo_log import log as logging

from tether.compute.api import server_shares
from tether.compute.api import servers
from tether.compute import exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import version as compute_version
from tether.db.compute import instance as db_instances
from tether.db.compute import instance_action as db_actions
from tether.objects import fields

LOG = logging.getLogger(__name__)

VmState = fields.VmState
TaskState = fields.TaskState
Action = fields.InstanceAction
LockedBy = fields.LockedBy


def _power(context, instance, action, vm_states, task_state, cast):
    servers.check_host(instance, action)
    servers.check_unlocked(context, instance)
    instance = db_instances.update(
        context, instance.uuid, {'task_state': task_state},
        expected_vm_state=vm_states, expected_task_state=None,
        action=action, unlocked=not context.is_admin)
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
        # Nova's ALLOW_HARD_REBOOT: a paused or suspended guest is
        # destroyed (its saved memory too) and boots again.
        states = (VmState.ACTIVE, VmState.STOPPED, VmState.PAUSED,
                  VmState.SUSPENDED, VmState.ERROR)
        task = TaskState.REBOOTING_HARD

    def cast(ctxt, inst):
        compute_rpcapi.get().reboot_instance(ctxt, inst, reboot_type)
    _power(context, instance, Action.REBOOT, states, task, cast)


# Pause and suspend ----------------------------------------------------------

def _needs_pause_host(context, instance, action):
    """The server's host and the RPC pin know pause, unpause, suspend
    and resume (service version 8, RPC 1.6): 409 or 403 before anything
    changes."""
    servers.check_host(instance, action)
    servers.check_host_version(context, instance,
                               compute_version.PAUSE_SERVICE_VERSION,
                               action)
    compute_rpcapi.get().check_pause_calls(action)


def pause(context, instance):
    """Pause an active server: its guest's vCPUs stop, its memory stays
    in its QEMU process (``paused``, status PAUSED)."""
    _needs_pause_host(context, instance, Action.PAUSE)
    _power(context, instance, Action.PAUSE, (VmState.ACTIVE,),
           TaskState.PAUSING, compute_rpcapi.get().pause_instance)


def unpause(context, instance):
    _needs_pause_host(context, instance, Action.UNPAUSE)
    _power(context, instance, Action.UNPAUSE, (VmState.PAUSED,),
           TaskState.UNPAUSING, compute_rpcapi.get().unpause_instance)


def suspend(context, instance):
    """Suspend an active server: its guest's memory saved to a file on
    its host and its QEMU process ended (``suspended``, status
    SUSPENDED). A server with shares cannot be suspended (as in Nova:
    virtio-fs cannot be saved)."""
    _needs_pause_host(context, instance, Action.SUSPEND)
    # A share is attached to a stopped server only (with its row
    # locked), so none can come between this read and the claim.
    if server_shares.list_shares(context, instance):
        raise exception.ForbiddenWithShare(instance_id=instance.uuid,
                                           action=Action.SUSPEND)
    _power(context, instance, Action.SUSPEND, (VmState.ACTIVE,),
           TaskState.SUSPENDING, compute_rpcapi.get().suspend_instance)


def resume(context, instance):
    _needs_pause_host(context, instance, Action.RESUME)
    _power(context, instance, Action.RESUME, (VmState.SUSPENDED,),
           TaskState.RESUMING, compute_rpcapi.get().resume_instance)


# Lock ----------------------------------------------------------------------

def locked_by(context, instance):
    """Who a lock of ``context``'s would be locked by: the owner (a user
    of the server's project) or an admin (anyone else)."""
    return (LockedBy.OWNER if instance.project_id == context.project_id
            else LockedBy.ADMIN)


def is_expected_locked_by(context, instance):
    """Whether ``context`` may unlock the server without the override
    rule: it is unlocked, or locked by someone of the same kind (Nova's
    ``is_expected_locked_by``)."""
    return instance.locked_by in (None, locked_by(context, instance))


def lock(context, instance, reason=None):
    """Lock the server: users who are not admins cannot act on it until
    it is unlocked (InstanceIsLocked, 409)."""
    instance = db_instances.lock(
        context, instance.uuid, locked_by(context, instance), reason,
        db_actions.action_values(context, instance.uuid, Action.LOCK))
    LOG.info('Server %s locked by %s', instance.uuid, instance.locked_by)
    return instance


def unlock(context, instance):
    """Unlock the server, if its lock is still the one the caller's
    policy was checked against (InstanceLockChanged, 409, otherwise)."""
    instance = db_instances.unlock(
        context, instance.uuid, instance.locked_by,
        db_actions.action_values(context, instance.uuid, Action.UNLOCK))
    LOG.info('Server %s unlocked', instance.uuid)
    return instance
