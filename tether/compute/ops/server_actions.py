"""What the compute manager does for a server's power actions: start,
stop, reboot. Each settles the task the API claimed; the power state is
the hypervisor's."""

from oslo_utils import excutils

from tether.compute import exception
from tether.db.compute import instance as db_instances
from tether.drivers.virt.power_state import PowerState
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


def start(context, host, instance):
    try:
        host.driver.power_on(instance.uuid)
    except Exception:
        with excutils.save_and_reraise_exception():
            _fail_power(context, instance, TaskState.POWERING_ON)
    _finish_power(context, instance, {'vm_state': VmState.ACTIVE,
                                      'power_state': PowerState.RUNNING},
                  TaskState.POWERING_ON)


def stop(context, host, instance, timeout):
    try:
        host.driver.power_off(instance.uuid, timeout)
    except Exception:
        with excutils.save_and_reraise_exception():
            _fail_power(context, instance, TaskState.POWERING_OFF)
    _finish_power(context, instance, {'vm_state': VmState.STOPPED,
                                      'power_state': PowerState.SHUTDOWN},
                  TaskState.POWERING_OFF)


def reboot(context, host, instance, task_state):
    try:
        host.driver.reboot(instance.uuid)
    except Exception:
        with excutils.save_and_reraise_exception():
            _fail_power(context, instance, task_state)
    _finish_power(context, instance, {'vm_state': VmState.ACTIVE,
                                      'power_state': PowerState.RUNNING},
                  task_state)
