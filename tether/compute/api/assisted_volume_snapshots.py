"""Assisted volume snapshots in the API process: find the server of the
volume, check that its host can act, and cast (tether.compute.ops.
volume_snapshots does the work and answers the volume service).

As Nova: the server may be in any state a hypervisor can change its
disks in (active, stopped, paused; tether refuses suspended and rescued
servers, whose saved memory or rescue definition would not follow),
with no task under way and a host; what is refused is a 400.
"""

from tether.compute.api import servers
from tether.compute import exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import version as compute_version
from tether.db.compute import block_device_mapping as db_bdms
from tether.objects import fields

VM = fields.VmState
USABLE = (VM.ACTIVE, VM.STOPPED, VM.PAUSED)


def _instance_of(context, volume_id):
    bdms = db_bdms.get_by_volume_id(context, volume_id)
    if not bdms:
        raise exception.VolumeNotOnAnyServer(volume_id=volume_id)
    if len(bdms) > 1:
        raise exception.VolumeOnManyServers(volume_id=volume_id)
    return servers.get_any(context, bdms[0].instance_uuid)


def _check(context, instance, action):
    try:
        servers.check_host(instance, action)
        servers.check_state(instance, action, USABLE)
        servers.check_host_version(
            context, instance,
            compute_version.ASSISTED_SNAPSHOT_SERVICE_VERSION, action)
    except (exception.InstanceNotReady, exception.InstanceInvalidState,
            exception.ComputeHostTooOld) as exc:
        raise exception.AssistedSnapshotRefused(
            instance_id=instance.uuid, action=action, reason=exc.msg)
    compute_rpcapi.get().check_volume_snapshot_calls(action)


def create(context, volume_id, create_info):
    """Cast the switch of the volume's disk to ``create_info``'s
    new_file; the answer's ``snapshot`` (Nova's: create_info's ``id``)."""
    instance = _instance_of(context, volume_id)
    _check(context, instance, 'volume_snapshot_create')
    compute_rpcapi.get().volume_snapshot_create(context, instance,
                                                volume_id, create_info)
    return {'id': create_info.get('id'), 'volumeId': volume_id}


def delete(context, snapshot_id, delete_info):
    """Cast the merge ``delete_info`` names."""
    volume_id = delete_info['volume_id']
    instance = _instance_of(context, volume_id)
    _check(context, instance, 'volume_snapshot_delete')
    compute_rpcapi.get().volume_snapshot_delete(context, instance, volume_id,
                                                snapshot_id, delete_info)
