"""What the compute manager does for a server's actions: start, stop,
reboot, pause, unpause, suspend, resume, each settling the task the API
claimed (the power state is the hypervisor's), with the server's shares
mounted before its guest starts and unmounted after it stops."""

from oslo_utils import excutils

from tether.compute import exception
from tether.compute.ops import notifications
from tether.compute.ops import server_shares
from tether.db.compute import instance as db_instances
from tether.drivers.virt.power_state import PowerState
from tether.objects.compute import instance as instance_obj
from tether.objects import fields

VmState = fields.VmState
TaskState = fields.TaskState


def _finish_power(context, instance, values, task_state):
    return db_instances.update(context, instance.uuid,
                               dict(values, task_state=None),
                               expected_task_state=task_state,
                               action='power')


def _fail_power(context, instance, task_state):
    """Put a failed power action's task back; the state is libvirt's."""
    try:
        db_instances.update(context, instance.uuid, {'task_state': None},
                            expected_task_state=task_state,
                            action='power')
    except (exception.InstanceInvalidState, exception.InstanceNotFound):
        pass


def _fail_start(context, instance, exc, task_state):
    """A share could not be mounted: the server in ERROR with a fault
    that names it (the mapping is in error with the reason)."""
    try:
        db_instances.update(
            context, instance.uuid,
            {'vm_state': VmState.ERROR, 'task_state': None,
             'fault': instance_obj.fault_of(exc)},
            expected_task_state=task_state, action='power')
    except (exception.InstanceInvalidState, exception.InstanceNotFound):
        pass


def _power_on(context, host, instance, task_state, turn_on):
    """Mount the server's shares, then ``turn_on(guest_shares)``; the
    shares are released again if the guest does not start."""
    try:
        guest_shares = server_shares.mount_all(context, host, instance)
    except server_shares.ShareStartFailed as exc:
        with excutils.save_and_reraise_exception():
            _fail_start(context, instance, exc, task_state)
    except Exception:
        with excutils.save_and_reraise_exception():
            _fail_power(context, instance, task_state)
    try:
        turn_on(guest_shares)
    except Exception:
        with excutils.save_and_reraise_exception():
            server_shares.unmount_all(context, host, instance)
            _fail_power(context, instance, task_state)
    _finish_power(context, instance, {'vm_state': VmState.ACTIVE,
                                      'power_state': PowerState.RUNNING},
                  task_state)


def start(context, host, instance):
    _power_on(context, host, instance, TaskState.POWERING_ON,
              lambda guest_shares: host.driver.power_on(
                  instance.uuid, shares=guest_shares))


def stop(context, host, instance, timeout):
    try:
        host.driver.power_off(instance.uuid, timeout)
    except Exception:
        with excutils.save_and_reraise_exception():
            _fail_power(context, instance, TaskState.POWERING_OFF)
    server_shares.unmount_all(context, host, instance)
    _finish_power(context, instance, {'vm_state': VmState.STOPPED,
                                      'power_state': PowerState.SHUTDOWN},
                  TaskState.POWERING_OFF)


def reboot(context, host, instance, task_state, soft_timeout=None):
    """``soft_timeout``: a soft reboot's wait for the guest's OS to
    power off (None: a hard reboot)."""
    # The guest gets its shares as a start gives them (a share attached
    # while the server ran, in the window before its start, too).
    _power_on(context, host, instance, task_state,
              lambda guest_shares: host.driver.reboot(
                  instance.uuid, shares=guest_shares,
                  soft_timeout=soft_timeout))


def _settle(context, host, instance, what, task_state, act, vm_state):
    """Run ``act()`` on the guest for the task ``task_state`` the API
    claimed, then record ``vm_state`` and the guest's power state; a
    failure puts the task back (the state is libvirt's)."""
    with notifications.around(context, host, instance, what):
        try:
            act()
            power_state = host.driver.get_info(instance.uuid).state
        except Exception:
            with excutils.save_and_reraise_exception():
                _fail_power(context, instance, task_state)
        _finish_power(context, instance,
                      {'vm_state': vm_state, 'power_state': power_state},
                      task_state)


def pause(context, host, instance):
    _settle(context, host, instance, 'pause', TaskState.PAUSING,
            lambda: host.driver.pause(instance.uuid), VmState.PAUSED)


def unpause(context, host, instance):
    _settle(context, host, instance, 'unpause', TaskState.UNPAUSING,
            lambda: host.driver.unpause(instance.uuid), VmState.ACTIVE)


def suspend(context, host, instance):
    _settle(context, host, instance, 'suspend', TaskState.SUSPENDING,
            lambda: host.driver.suspend(instance.uuid), VmState.SUSPENDED)


def resume(context, host, instance):
    _settle(context, host, instance, 'resume', TaskState.RESUMING,
            lambda: host.driver.resume(instance.uuid), VmState.ACTIVE)
