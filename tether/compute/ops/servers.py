"""What the compute manager does to a server: build and delete.

Plain functions of (context, host, instance, ...), where ``host`` is the
:class:`~tether.compute.manager.ComputeManager` (its name, driver and
volume client). Every state change is a conditional update naming the
task_state it expects: a server deleted while it was being built loses
the next update, and the build cleans up after itself.
"""

from oslo_log import log as logging
from oslo_utils import excutils
from oslo_utils import timeutils

from tether.compute import exception
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import instance as db_instances
from tether.drivers.virt import driver as virt_driver
from tether.drivers.virt.power_state import PowerState
from tether.objects.compute import instance as instance_obj
from tether.objects import fields

LOG = logging.getLogger(__name__)
GiB = 1024 ** 3

VmState = fields.VmState
TaskState = fields.TaskState


def guest_spec(instance):
    return virt_driver.Instance(uuid=instance.uuid, name=instance.name,
                                memory_mb=instance.memory_mb,
                                vcpus=instance.vcpus,
                                display_name=instance.display_name)


def release_volumes(context, client, instance_uuid):
    """Delete the attachment of every volume of the instance and its row.

    The volumes go back to ``available`` (the guest no longer uses them).
    """
    for bdm in db_bdms.get_by_instance(context, instance_uuid):
        if bdm.attachment_id:
            try:
                client.delete_attachment(bdm.attachment_id)
            except exception.TetherException:
                LOG.exception('Could not delete attachment %s of volume %s '
                              'of instance %s', bdm.attachment_id,
                              bdm.volume_id, instance_uuid)
                continue
        db_bdms.destroy(context, bdm.id)


def build(context, host, instance):
    """Connect the volumes, start the guest, complete the attachments."""
    client = volume_client.as_service(context)
    spawned = False
    try:
        db_instances.update(
            context, instance.uuid,
            {'task_state': TaskState.BLOCK_DEVICE_MAPPING},
            expected_task_state=TaskState.SCHEDULING, action='build')
        connector = host.driver.get_volume_connector()
        bdms = db_bdms.get_by_instance(context, instance.uuid)
        infos = []
        # The volume service records the device as the mount point of
        # the attachment, as Nova sends it.
        names = host.driver.boot_device_names(len(bdms))
        for bdm, name in zip(bdms, names):
            attachment = client.update_attachment(
                bdm.attachment_id, dict(connector, mountpoint=name))
            info = attachment['connection_info']
            db_bdms.update(context, bdm.id, {'connection_info': info})
            infos.append(info)
        db_instances.update(
            context, instance.uuid, {'task_state': TaskState.SPAWNING},
            expected_task_state=TaskState.BLOCK_DEVICE_MAPPING,
            action='build')
        devices = host.driver.spawn(guest_spec(instance), infos)
        spawned = True
        for bdm, device in zip(bdms, devices):
            client.complete_attachment(bdm.attachment_id)
            db_bdms.update(context, bdm.id,
                           {'device_name': device,
                            'status': fields.BdmStatus.ATTACHED})
        return db_instances.update(
            context, instance.uuid,
            {'vm_state': VmState.ACTIVE, 'task_state': None,
             'power_state': PowerState.RUNNING,
             'launched_at': timeutils.utcnow()},
            expected_task_state=TaskState.SPAWNING, action='build')
    except Exception as exc:
        with excutils.save_and_reraise_exception() as ctxt:
            deleting = _being_deleted(context, instance.uuid)
            LOG.log(logging.INFO if deleting else logging.ERROR,
                    'Build of instance %s stopped: %s', instance.uuid, exc)
            if spawned:
                host.driver.destroy(instance.uuid)
            if deleting:
                # The delete that overtook the build finishes the job: it
                # waits for this lock, then releases the volumes (and
                # deletes those marked delete_on_termination).
                ctxt.reraise = False
            else:
                release_volumes(context, client, instance.uuid)
                _set_error(context, instance.uuid, exc)


def _being_deleted(context, instance_uuid):
    try:
        instance = db_instances.get(context, instance_uuid)
    except exception.InstanceNotFound:
        return True
    return instance.task_state == TaskState.DELETING


def _set_error(context, instance_uuid, exc):
    try:
        db_instances.update(
            context, instance_uuid,
            {'vm_state': VmState.ERROR, 'task_state': None,
             'fault': instance_obj.fault_of(exc)},
            expected_task_state=tuple(s for s in TaskState.ALL
                                      if s != TaskState.DELETING) + (None,),
            action='error')
    except (exception.InstanceInvalidState, exception.InstanceNotFound):
        pass


def terminate(context, host, instance):
    """Remove the guest, release (or delete) its volumes, mark it deleted."""
    client = volume_client.as_service(context)
    host.driver.destroy(instance.uuid)
    doomed = [bdm.volume_id
              for bdm in db_bdms.get_by_instance(context, instance.uuid)
              if bdm.delete_on_termination]
    release_volumes(context, client, instance.uuid)
    db_instances.soft_delete(context, instance.uuid)
    for volume_id in doomed:
        try:
            client.delete_volume(volume_id)
        except exception.TetherException:
            LOG.exception('Could not delete volume %s of deleted instance '
                          '%s (delete_on_termination)', volume_id,
                          instance.uuid)
