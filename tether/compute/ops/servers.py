"""What the compute manager does to a server: build and delete.

A server boots from a volume, or from an image onto a local root disk;
its block device mappings say which
(tether.compute.ops.block_device_mapping makes the volumes of images and
gives the root disk its image).

Plain functions of (context, host, instance, ...), where ``host`` is the
:class:`~tether.compute.manager.ComputeManager` (its name, driver and
volume client). Every state change is a conditional update naming the
task_state it expects: a server deleted while it was being built loses
the next update, and the build cleans up after itself.
"""

from oslo_log import log as logging
from oslo_utils import excutils
from oslo_utils import timeutils

from tether.compute import configdrive
from tether.compute import exception
from tether.compute import instance_state
from tether.compute.ops import block_device_mapping
from tether.compute.ops import server_shares
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
    return virt_driver.Instance(
        uuid=instance.uuid, name=instance.name,
        memory_mb=instance.memory_mb, vcpus=instance.vcpus,
        display_name=instance.display_name,
        config_drive=(configdrive.files(instance)
                      if configdrive.required(instance) else None))


def build(context, host, instance):
    """Make the volumes of images, connect the volumes, start the guest
    (on a local root disk made of its image, for a server from an image),
    complete the attachments."""
    client = volume_client.as_service(context)
    spawned = False
    try:
        db_instances.update(
            context, instance.uuid,
            {'task_state': TaskState.BLOCK_DEVICE_MAPPING},
            expected_task_state=TaskState.SCHEDULING, action='build')
        block_device_mapping.make_volumes(
            context, instance, lambda: _deleted_reason(context, instance))
        connector = host.driver.get_volume_connector()
        disks = db_bdms.get_all_by_instance(context, instance.uuid)
        local = next((d for d in disks if d.is_local_image), None)
        bdms = [d for d in disks if d.is_volume]
        infos = []
        # The volume service records the device as the mount point of
        # the attachment, as Nova sends it.
        names = host.driver.boot_device_names(
            len(bdms) + (1 if local is not None else 0))
        if local is not None:
            # The local root disk is the first disk, the volumes follow.
            root_device, names = names[0], names[1:]
        for bdm, name in zip(bdms, names):
            attachment = client.update_attachment(
                bdm.attachment_id, dict(connector, mountpoint=name))
            info = attachment['connection_info']
            db_bdms.update(context, bdm.id, {'connection_info': info})
            infos.append(info)
        spawning = {'task_state': TaskState.SPAWNING}
        if configdrive.required(instance) and not configdrive.asked(instance):
            # This host gives every server one (force_config_drive): the
            # server says so, as Nova's does.
            spawning['config_drive'] = configdrive.TRUE
        instance = db_instances.update(
            context, instance.uuid, spawning,
            expected_task_state=TaskState.BLOCK_DEVICE_MAPPING,
            action='build')
        root_image = (
            block_device_mapping.root_image(context, instance, local)
            if local is not None else None)
        devices = host.driver.spawn(guest_spec(instance), infos,
                                    root_image=root_image)
        spawned = True
        if local is not None:
            db_bdms.update(context, local.id,
                           {'device_name': root_device,
                            'status': fields.BdmStatus.ATTACHED})
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
            deleting = being_deleted(context, instance.uuid)
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
                block_device_mapping.release_after_failure(
                    context, client, instance.uuid)
                _set_error(context, instance.uuid, exc)


def _deleted_reason(context, instance):
    if being_deleted(context, instance.uuid):
        return 'the server is being deleted'
    return None


def being_deleted(context, instance_uuid):
    """Whether the server is gone or being deleted (a delete overtook
    the work under way: it finishes the job)."""
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
    """Remove the guest (and its local root disk), release its shares,
    release (or delete) its volumes, mark it deleted."""
    client = volume_client.as_service(context)
    host.driver.destroy(instance.uuid)
    server_shares.release_all(context, host, instance.uuid)
    doomed = [bdm.volume_id
              for bdm in db_bdms.get_by_instance(context, instance.uuid)
              if bdm.delete_on_termination and bdm.volume_id]
    block_device_mapping.release_volumes(context, client, instance.uuid)
    instance_state.soft_delete_counted(context, instance.uuid)
    for volume_id in doomed:
        try:
            block_device_mapping.delete_volume(client, volume_id)
        except exception.TetherException:
            LOG.exception('Could not delete volume %s of deleted instance '
                          '%s (delete_on_termination)', volume_id,
                          instance.uuid)
