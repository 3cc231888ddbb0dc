"""What the compute manager does for a rescue and an unrescue (the API
claimed the server with task_state ``rescuing`` or ``unrescuing``).

Rescue: the driver keeps the guest's definition, makes a rescue disk of
the rescue image (through the host's image cache, as a root disk), and
makes the guest again with that disk added first in the boot order and
the server's own disks after it, keeping their names (Nova's stable
device rescue); the guest starts (a stopped server's too, as in Nova)
and the server is ``rescued``. A rescue that fails puts the server in
ERROR with a fault, as Nova's does (the driver puts the guest's own
definition back first); unrescue is the way out of a rescue that
worked, a rescue from ERROR of one that did not.

Unrescue: the guest made again from the kept definition, its rescue
disk removed, started; the server is ``active``. An unrescue that fails
puts the task back: the server stays ``rescued``, and unrescuing it
again carries on.
"""

from oslo_log import log as logging
from oslo_utils import excutils

from tether.compute import exception
from tether.compute import image_exception
from tether.compute.ops import notifications
from tether.compute.ops import servers
from tether.db.compute import instance as db_instances
from tether.drivers.virt import driver as virt_driver
from tether import images
from tether.objects.compute import instance as instance_obj
from tether.objects import fields

LOG = logging.getLogger(__name__)

VmState = fields.VmState
TaskState = fields.TaskState


def rescue_image(context, image_id):
    """The RootImage of a rescue disk: the image's own virtual size,
    fetched with the token of the user who asked (or the service's)
    only if the host has no copy of it yet."""
    client = images.for_context(context)

    def fetch(path):
        image = client.get(image_id)
        if image.get('status') != 'active':
            raise image_exception.ImageNotActive(image_id=image_id)
        client.download(image, path)
        return image['disk_format']

    return virt_driver.RootImage(image_id=image_id, size_gb=0, fetch=fetch)


def _power_state(host, instance):
    try:
        return host.driver.get_info(instance.uuid).state
    except exception.InstanceNotFound:
        return None


def _finish(context, instance, values, task_state, action):
    return db_instances.update(context, instance.uuid,
                               dict(values, task_state=None),
                               expected_task_state=task_state,
                               action=action)


def _fail_rescue(context, host, instance, exc):
    """Nova's: the server in ERROR with the fault (unless a delete
    came meanwhile)."""
    values = {'vm_state': VmState.ERROR, 'task_state': None,
              'fault': instance_obj.fault_of(exc)}
    state = _power_state(host, instance)
    if state is not None:
        values['power_state'] = state
    try:
        db_instances.update(context, instance.uuid, values,
                            expected_task_state=TaskState.RESCUING,
                            action='rescue')
    except (exception.InstanceInvalidState, exception.InstanceNotFound):
        LOG.info('Server %s moved on (deleted?) while its rescue failed',
                 instance.uuid)


def rescue(context, host, instance, rescue_image_id):
    with notifications.around(context, host, instance, 'rescue',
                              rescue_image_ref=rescue_image_id):
        try:
            host.driver.rescue(servers.guest_spec(instance),
                               rescue_image(context, rescue_image_id))
        except Exception as exc:
            with excutils.save_and_reraise_exception():
                LOG.warning('Could not rescue server %s: %s',
                            instance.uuid, exc)
                _fail_rescue(context, host, instance, exc)
        _finish(context, instance,
                {'vm_state': VmState.RESCUED,
                 'power_state': host.driver.get_info(instance.uuid).state},
                TaskState.RESCUING, 'rescue')
        LOG.info('Rescued server %s with image %s', instance.uuid,
                 rescue_image_id)


def unrescue(context, host, instance):
    with notifications.around(context, host, instance, 'unrescue'):
        try:
            host.driver.unrescue(instance.uuid)
        except Exception:
            with excutils.save_and_reraise_exception():
                try:
                    db_instances.update(
                        context, instance.uuid, {'task_state': None},
                        expected_task_state=TaskState.UNRESCUING,
                        action='unrescue')
                except (exception.InstanceInvalidState,
                        exception.InstanceNotFound):
                    pass
        _finish(context, instance,
                {'vm_state': VmState.ACTIVE,
                 'power_state': host.driver.get_info(instance.uuid).state},
                TaskState.UNRESCUING, 'unrescue')
        LOG.info('Unrescued server %s', instance.uuid)
