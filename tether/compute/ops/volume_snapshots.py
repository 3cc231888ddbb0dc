"""Assisted volume snapshots on this host: what the volume service of a
file-backed volume attached here asks of the hypervisor (Nova's
``os-assisted-volume-snapshots``), as plain functions.

QEMU holds an attached volume's files, so the volume service makes the
files and names them, and the guest's disk is switched or merged here
(tether.drivers.virt.libvirt.driver_volume_snapshots). The volume
service waits for the answer, ``os-update_snapshot_status`` with
progress ``90%`` (Nova's convention): the status ``creating`` or
``deleting`` if it was done, ``error`` or ``error_deleting`` if not.
Each may be asked again (the driver then does nothing more), and the
answer is sent again.
"""

import copy

from oslo_log import log as logging
from oslo_utils import excutils

from tether.compute import exception
from tether.compute.ops import volume_attachments
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.objects import fields

LOG = logging.getLogger(__name__)
# What the volume service waits for in the snapshot's progress.
DONE = '90%'


def check_usable(host, instance, action):
    """A rescued guest's definition is the rescue's; a suspended one's
    memory holds its disks as they were: neither is changed (409)."""
    volume_attachments.check_not_rescued(host, instance, action)
    if host.driver.get_info(instance.uuid).saved:
        raise exception.InstanceInvalidState(
            action=action, instance_id=instance.uuid, attr='vm_state',
            state=fields.VmState.SUSPENDED)


def _report(client, snapshot_id, status):
    try:
        client.update_snapshot_status(snapshot_id, status, DONE)
    except exception.TetherException:
        # The volume service gives up waiting after its timeout.
        LOG.exception('Could not report snapshot %s %s to the volume '
                      'service', snapshot_id, status)


def create(context, host, instance, volume_id, create_info):
    """Switch the guest's disk of the volume to ``new_file``, record
    that the volume is read from it now, and answer."""
    snapshot_id = create_info['snapshot_id']
    new_file = create_info['new_file']
    client = volume_client.as_service(context)
    try:
        check_usable(host, instance, 'volume_snapshot_create')
        bdm = db_bdms.get_by_volume(context, instance.uuid, volume_id)
        host.driver.volume_snapshot_create(instance.uuid, volume_id,
                                           new_file)
        # What the volume service's connection info names from now on
        # (its info file names new_file active when it has this answer):
        # the next start, reboot or detach finds the disk by it.
        info = copy.deepcopy(bdm.connection_info)
        if info and info.get('data', {}).get('name') != new_file:
            info['data'].update(name=new_file, format='qcow2')
            db_bdms.update(context, bdm.id, {'connection_info': info})
    except Exception as exc:
        with excutils.save_and_reraise_exception():
            LOG.error('Snapshot %s of volume %s on server %s failed: %s',
                      snapshot_id, volume_id, instance.uuid, exc)
            _report(client, snapshot_id, fields.SnapshotStatus.ERROR)
    _report(client, snapshot_id, fields.SnapshotStatus.CREATING)
    LOG.info('Snapshot %s of volume %s taken on server %s', snapshot_id,
             volume_id, instance.uuid)


def delete(context, host, instance, volume_id, snapshot_id, delete_info):
    """Merge the files ``delete_info`` names, and answer. The file the
    guest writes stays the same: the connection info does not change."""
    client = volume_client.as_service(context)
    try:
        check_usable(host, instance, 'volume_snapshot_delete')
        db_bdms.get_by_volume(context, instance.uuid, volume_id)
        host.driver.volume_snapshot_delete(
            instance.uuid, volume_id, delete_info['file_to_merge'],
            delete_info['merge_target_file'])
    except Exception as exc:
        with excutils.save_and_reraise_exception():
            LOG.error('Delete of snapshot %s of volume %s on server %s '
                      'failed: %s', snapshot_id, volume_id, instance.uuid,
                      exc)
            _report(client, snapshot_id,
                    fields.SnapshotStatus.ERROR_DELETING)
    _report(client, snapshot_id, fields.SnapshotStatus.DELETING)
    LOG.info('Snapshot %s of volume %s merged on server %s', snapshot_id,
             volume_id, instance.uuid)
