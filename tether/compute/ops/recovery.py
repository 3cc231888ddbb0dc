"""What a starting tether-compute does with the work its last run left.

Each instance of this host is compared with what libvirt reports:

* a build that was interrupted is failed: the guest (if any) and its
  local root disk removed, the volumes released (a volume the build made
  of an image deleted if it was to go with the server), the instance
  put in ERROR with a fault that says so;
* an interrupted rebuild is failed: the instance put in ERROR with a
  fault (as Nova does); its volumes stay the server's, and rebuilding it
  again is the way out;
* an interrupted delete is finished;
* an interrupted snapshot into an image is ended (a guest it paused
  runs again; the image, left queued, is the user's to delete);
* an interrupted power action (also a pause or a suspend) is settled
  from the guest's power state: running is ``active``, paused
  ``paused``, off with its memory saved ``suspended``, off ``stopped``;
* a guest made of a rescue (its own definition kept by the driver) is
  ``rescued``, also after an interrupted rescue or unrescue, which
  unrescue then finishes;
* a volume attach that was interrupted is undone, a detach finished;
* a share attach or detach that was interrupted is finished (from
  Manila's truth), and the shares of deleted servers released;
* otherwise vm_state and power_state follow the guest (a guest that
  stopped while tether-compute was down is ``stopped``).

Guests that belong to no instance of this host are left alone: a
libvirt may be shared (tests, other tools).
"""

from oslo_log import log as logging

from tether.compute import exception
from tether.compute.ops import block_device_mapping
from tether.compute.ops import server_shares
from tether.compute.ops import servers
from tether.compute.ops import volume_attachments
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import instance as db_instances
from tether.drivers.virt.power_state import PowerState
from tether.objects.compute import instance as instance_obj
from tether.objects import fields
from tether.objects.compute import status as server_status

LOG = logging.getLogger(__name__)

VmState = fields.VmState
TaskState = fields.TaskState
_BUILDING = (TaskState.SCHEDULING, TaskState.BLOCK_DEVICE_MAPPING,
             TaskState.SPAWNING)


class Interrupted(Exception):
    """The fault of work a restart of tether-compute interrupted."""


def _info(host, instance):
    try:
        return host.driver.get_info(instance.uuid)
    except exception.InstanceNotFound:
        return None


def _power_state(host, instance):
    info = _info(host, instance)
    return None if info is None else info.state


def _settle_power(context, host, instance, expected_task_state):
    info = _info(host, instance)
    state = None if info is None else info.state
    if state is None:
        values = {'vm_state': VmState.ERROR, 'power_state':
                  PowerState.NOSTATE,
                  'fault': instance_obj.fault_of(Interrupted(
                      'The guest of this server is gone from the '
                      'hypervisor.'))}
    elif host.driver.is_rescued(instance.uuid):
        values = {'vm_state': VmState.RESCUED, 'power_state': state}
    elif state == PowerState.PAUSED and (
            instance.vm_state == VmState.PAUSED or
            expected_task_state == TaskState.PAUSING):
        values = {'vm_state': VmState.PAUSED, 'power_state': state}
    elif state in (PowerState.RUNNING, PowerState.PAUSED):
        # A guest QEMU paused on its own (an I/O error) stays active, as
        # Nova leaves it.
        values = {'vm_state': VmState.ACTIVE, 'power_state': state}
    elif info.saved:
        # Its memory saved: a suspend that finished (its next start
        # resumes it).
        values = {'vm_state': VmState.SUSPENDED, 'power_state': state}
    else:
        values = {'vm_state': VmState.STOPPED, 'power_state': state}
    if values['vm_state'] == instance.vm_state and \
            values.get('power_state') == instance.power_state and \
            expected_task_state is None:
        return False
    db_instances.update(context, instance.uuid,
                        dict(values, task_state=None),
                        expected_task_state=expected_task_state,
                        action='reconcile')
    return True


def _reconcile_volume(context, host, instance, bdm):
    """Undo an interrupted attach of ``bdm``, finish its detach; True if
    it was either."""
    if bdm.status == fields.BdmStatus.ATTACHING and bdm.boot_index != 0:
        client = volume_client.as_service(context)
        info = bdm.connection_info
        if info is not None:
            try:
                host.driver.detach_volume(instance.uuid, info)
            except (exception.VolumeAttachmentNotFound,
                    exception.InstanceNotFound):
                pass
        client.delete_attachment(bdm.attachment_id)
        db_bdms.destroy(context, bdm.id)
        return True
    if bdm.status == fields.BdmStatus.DETACHING:
        volume_attachments.detach(context, host, instance, bdm.volume_id)
        return True
    return False


def _reconcile_volumes(context, host, instance):
    """The instance's volumes left mid-attach or mid-detach, each on its
    own: one that cannot be settled is logged and stays as it is (for
    the next start or an administrator), and the others are still
    settled, as is the instance. The number settled."""
    count = 0
    for bdm in db_bdms.get_by_instance(context, instance.uuid):
        try:
            count += _reconcile_volume(context, host, instance, bdm)
        except Exception:  # noqa: BLE001 - one volume never stops others
            LOG.exception('Could not settle volume %s of instance %s, '
                          'left %s: it stays so', bdm.volume_id,
                          instance.uuid, bdm.status)
    return count


def reconcile_instance(context, host, instance):
    """Settle one instance; True if anything changed."""
    task = instance.task_state
    if task == TaskState.DELETING:
        servers.terminate(context, host, instance)
        return True
    if task in _BUILDING or instance.vm_state == VmState.BUILDING:
        # build() cleans up and records the fault when its next
        # conditional update fails; here nothing runs it any more.
        host.driver.destroy(instance.uuid)
        block_device_mapping.release_after_failure(
            context, volume_client.as_service(context), instance.uuid)
        db_instances.update(
            context, instance.uuid,
            {'vm_state': VmState.ERROR, 'task_state': None,
             'fault': instance_obj.fault_of(Interrupted(
                 'The build was interrupted by a restart of '
                 'tether-compute on %s.' % host.host))},
            expected_task_state=task, action='reconcile')
        return True
    if task in server_status.REBUILDS:
        # The wait for volume-reimaged (or what came after it) died with
        # the last run: no event will reach it.
        db_instances.update(
            context, instance.uuid,
            {'vm_state': VmState.ERROR, 'task_state': None,
             'power_state': _power_state(host, instance) or
             PowerState.NOSTATE,
             'fault': instance_obj.fault_of(Interrupted(
                 'The rebuild was interrupted by a restart of '
                 'tether-compute on %s; rebuild the server again.'
                 % host.host))},
            expected_task_state=task, action='reconcile')
        return True
    if (task in TaskState.IMAGE_SNAPSHOTS and
            instance.vm_state == VmState.ACTIVE and
            _power_state(host, instance) == PowerState.PAUSED):
        # The snapshot paused the guest to copy its disk and died before
        # it ran it again. (Its image stays in the image API as it was:
        # the user deletes it.)
        LOG.info('Running the guest of %s again after an interrupted '
                 'snapshot', instance.uuid)
        host.driver.unpause(instance.uuid)
    changed = _reconcile_volumes(context, host, instance) > 0
    if instance.vm_state == VmState.ERROR:
        return changed
    return _settle_power(context, host, instance, task) or changed


def reconcile(context, host):
    """Settle every instance of ``host``, then the shares of its servers
    left mid-attach or mid-detach (and those of servers deleted since);
    the number of instances and shares that changed."""
    count = 0
    instances = db_instances.get_by_host(context, host.host)
    for instance in instances:
        try:
            if reconcile_instance(context, host, instance):
                count += 1
        except Exception:  # noqa: BLE001 - one instance never stops others
            LOG.exception('Could not reconcile instance %s', instance.uuid)
    live = {i.uuid: i for i in db_instances.get_by_host(context, host.host)}
    return count + server_shares.reconcile(context, host, live)
