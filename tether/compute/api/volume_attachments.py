"""The volumes of a server (``/servers/{id}/os-volume_attachments``):
attach and detach, in the API process."""

import oslo_messaging as messaging
from oslo_utils import excutils

from tether.compute.api import servers
from tether.compute import exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import instance_action as db_actions
from tether.objects import fields

VmState = fields.VmState
Action = fields.InstanceAction


# Nova attaches and detaches volumes of paused servers too (QEMU
# plugs a SCSI disk into a paused guest, and unplugs it, at once).
_ATTACHABLE_VM_STATES = (VmState.ACTIVE, VmState.STOPPED, VmState.PAUSED)


def _check_volume_action(context, instance, action):
    servers.check_state(instance, action, _ATTACHABLE_VM_STATES)
    servers.check_unlocked(context, instance)


def attach_volume(context, instance, volume_id, tag=None,
                  delete_on_termination=False):
    """Attach a volume to a server; returns its block device bdm."""
    _check_volume_action(context, instance, 'attach_volume')
    bdm = db_bdms.create(context, instance.uuid, db_bdms.new_values(
        volume_id, tag=tag, delete_on_termination=delete_on_termination,
        status=fields.BdmStatus.ATTACHING))
    client = volume_client.for_user(context)
    try:
        volume = client.get_volume(volume_id)
        if volume['status'] != 'available':
            raise exception.InvalidVolume(
                reason="volume %s is %s; only an available volume can be "
                       "attached" % (volume_id, volume['status']))
        try:
            attachment = client.create_attachment(volume_id, instance.uuid)
        except exception.VolumeAPIError as exc:
            raise exception.InvalidVolume(reason=str(exc))
    except Exception:
        with excutils.save_and_reraise_exception():
            db_bdms.destroy(context, bdm.id)
    db_bdms.update(context, bdm.id, {'attachment_id': attachment['id'],
                                     'volume_size': volume['size']})
    db_actions.action_start(context, instance.uuid, Action.ATTACH_VOLUME)
    # A call: the answer names the device, and a failure (after which the
    # compute host removed the bdm and the attachment) reaches the caller.
    try:
        compute_rpcapi.get().attach_volume(context, instance, volume_id)
    except messaging.MessagingTimeout:
        # The host may still finish (or roll back) the attach.
        raise exception.ComputeHostUnavailable(host=instance.host)
    except exception.VirtError as exc:
        raise exception.VolumeAttachFailed(
            volume_id=volume_id, instance_id=instance.uuid, reason=exc)
    return db_bdms.get_by_volume(context, instance.uuid, volume_id)


def detach_volume(context, instance, volume_id):
    _check_volume_action(context, instance, 'detach_volume')
    bdm = db_bdms.get_by_volume(context, instance.uuid, volume_id)
    if bdm.boot_index == 0:
        raise exception.InvalidVolume(
            reason='volume %s is the root disk of server %s; it cannot be '
                   'detached' % (volume_id, instance.uuid))
    if not db_bdms.update(context, bdm.id,
                          {'status': fields.BdmStatus.DETACHING},
                          expected_status=fields.BdmStatus.ATTACHED):
        raise exception.InvalidVolume(
            reason='volume %s is %s on server %s; only an attached volume '
                   'can be detached' % (volume_id, bdm.status,
                                        instance.uuid))
    db_actions.action_start(context, instance.uuid, Action.DETACH_VOLUME)
    compute_rpcapi.get().detach_volume(context, instance, volume_id)


def update_attachment(context, instance, volume_id, changes):
    """Nova's update of an attachment (2.85): ``delete_on_termination``
    may change; the other keys of a GET answer may be sent back as they
    are. Returns the bdm."""
    bdm = db_bdms.get_by_volume(context, instance.uuid, volume_id)
    shown = {'id': volume_id, 'serverId': instance.uuid,
             'device': bdm.device_name, 'tag': bdm.tag}
    for name, value in sorted(shown.items()):
        if name in changes and changes[name] != value:
            raise exception.AttachmentPropertyImmutable(name=name,
                                                        volume_id=volume_id)
    if 'delete_on_termination' in changes:
        db_bdms.update(context, bdm.id, {
            'delete_on_termination': changes['delete_on_termination']})
    return bdm


def swap_volume(context, instance, volume_id):
    """Nova's swap of a server's volume for another, which Cinder asks
    for during a volume migration or retype. Nova refuses it (409) when
    the volume is not migrating, before it looks at the new volume;
    tether's volume service migrates no volume, so a swap is always
    refused so, after the same 404 for a volume the volume API does not
    know."""
    volume_client.for_user(context).get_volume(volume_id)
    raise exception.VolumeNotMigrating(volume_id=volume_id)


def check_volumes_in_use(context, client, instance, read=None,
                         reserved_root=None):
    """Every volume of the server is in-use, as the volume API shows it
    (Nova's check before a rebuild or a rescue; InvalidVolume, 400).
    ``reserved_root``: a root volume that may be ``reserved`` too;
    ``read``: the volumes the request read already, by id."""
    read = read or {}
    for bdm in db_bdms.get_by_instance(context, instance.uuid):
        volume = (read.get(bdm.volume_id) or
                  client.get_volume(bdm.volume_id))
        allowed = {'in-use'}
        if bdm.volume_id == reserved_root:
            allowed.add('reserved')
        if volume['status'] not in allowed:
            raise exception.InvalidVolume(
                reason='volume %s of server %s is %s, not %s'
                       % (bdm.volume_id, instance.uuid, volume['status'],
                          ' or '.join(sorted(allowed))))
