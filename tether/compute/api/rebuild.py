"""The rebuild of a server in the API process: every check made before
anything changes, then the claim (task_state ``rebuilding``) and the cast
to the server's host (tether.compute.ops.rebuild does the work).

A volume-backed server is rebuilt by re-imaging its root volume from
microversion 2.93 (``reimage_boot_volume``, the volume-backed rebuild
spec's field, true by default there and refused when false); below
2.93 only with the image its root volume was made from, and then the
root volume is kept as it is, as Nova does. A server booted from an
image gets a new local root disk made of the new image, which becomes
its ``image_ref``; ``reimage_boot_volume`` true is refused for it (the
spec), and the 2.93 default does not apply to it.
"""

import types

from oslo_log import log as logging

from tether.compute.api import block_device_mapping
from tether.compute.api import server_metadata
from tether.compute.api import servers
from tether.compute.api import volume_attachments
from tether.compute import exception
from tether.compute import image_exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import scheduler
from tether.compute import version as compute_version
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import instance as db_instances
from tether.db.compute import instance_action as db_actions
from tether.drivers.virt import driver as virt_driver
from tether import images
from tether.objects import fields

LOG = logging.getLogger(__name__)
GiB = 1024 ** 3

VmState = fields.VmState
Action = fields.InstanceAction
# The states a server is rebuilt from (Nova's).
REBUILDABLE = (VmState.ACTIVE, VmState.STOPPED, VmState.ERROR)


def root_mapping(context, instance):
    """The block device mapping of the root volume, or None."""
    for bdm in db_bdms.get_by_instance(context, instance.uuid):
        if bdm.boot_index == 0:
            return bdm
    return None


def _image(context, image_ref, instance):
    """The image, with the caller's token: one a server can boot (active,
    a bare disk in a format tether reads) that the server's flavor holds
    (its min_ram), as for a new server."""
    image_id = image_ref.rstrip('/').rpartition('/')[2]
    try:
        image = images.for_caller(context).get(image_id)
    except (exception.ImageNotFound, exception.ImageNotAuthorized):
        raise exception.RebuildImageNotFound(image_id=image_ref)
    if block_device_mapping.maps_volumes(image):
        # Cinder re-images from the snapshot such an image maps
        # (bug 2062539); tether refuses it, clearly, before anything.
        raise image_exception.ImageUnacceptable(
            image_id=image['id'],
            reason='it is a snapshot of a volume-backed server (it maps '
                   'volume snapshots and has no data); rebuild with an '
                   'image that has data, or boot a new server from it')
    block_device_mapping.check_usable(image)
    block_device_mapping.check_memory(image, _flavor(instance))
    return image


def _flavor(instance):
    """The server's flavor as it booted (memory_mb, root_gb)."""
    flavor = instance.flavor or {}
    return types.SimpleNamespace(
        memory_mb=instance.memory_mb,
        root_gb=int(flavor.get('root_gb') or 0))


def _gib(size_bytes):
    return -(-int(size_bytes or 0) // GiB)


def _check_fits(image, volume):
    """The image must fit the root volume it is written over (the volume
    service checks again; refused here, nothing has changed yet)."""
    size = int(volume['size'])
    for what, needed in (('size', _gib(image.get('size'))),
                         ('virtual size', _gib(image.get('virtual_size'))),
                         ('min_disk', image.get('min_disk') or 0)):
        if needed > size:
            raise image_exception.ImageUnacceptable(
                image_id=image['id'],
                reason='its %s, %sGB, is larger than the root volume %s '
                       '(%sGB)' % (what, needed, volume['id'], size))


def _check_host_reimages(context, instance):
    """The server's host can re-image a root volume."""
    traits = scheduler.host_traits(context, instance.host)
    if virt_driver.COMPUTE_REBUILD_BFV not in traits:
        raise exception.RebuildVolumeBackedNotSupported(
            host=instance.host, instance_id=instance.uuid)


def check_volume_api_reimages(client):
    """The volume API serves os-reimage (a Cinder before Yoga does not)."""
    found = client.max_version()
    needed = volume_client.REIMAGE_VERSION
    if found is None or _version(found) < _version(needed):
        raise exception.VolumeAPIVersionNotAvailable(
            what='Re-imaging the root volume of a server', version=needed,
            found=found)


def _version(text):
    major, minor = text.split('.')
    return int(major), int(minor)


def _check_state(context, instance):
    servers.check_unlocked(context, instance)
    if instance.vm_state not in REBUILDABLE:
        raise exception.InstanceInvalidState(
            action='rebuild', instance_id=instance.uuid, attr='vm_state',
            state=instance.vm_state)
    if instance.task_state is not None:
        raise exception.InstanceInvalidState(
            action='rebuild', instance_id=instance.uuid, attr='task_state',
            state=instance.task_state)


def rebuild(context, instance, image_ref, values, reimage_boot_volume=None,
            reimage_by_default=False, zero_disk_allowed=False):
    """Check, claim and cast the rebuild of ``instance`` with the image
    ``image_ref``; ``values`` are the server's new name, metadata,
    description, hostname. ``reimage_by_default`` is 2.93 and later:
    a volume-backed server's root volume is re-imaged unless
    ``reimage_boot_volume`` is false, which is refused. A server booted
    from an image gets a new local root disk of the image (its flavor's
    root disk; ``zero_disk_allowed``: the policy lets the caller have a
    flavor of 0 GB take the image's size)."""
    servers.check_host(instance, 'rebuild')
    _check_state(context, instance)
    if 'metadata' in values:
        server_metadata.check_quota(context, values['metadata'])
    image = _image(context, image_ref, instance)
    client = volume_client.for_user(context)
    read = {}
    if instance.is_image_backed:
        root, reimage = None, False
        if reimage_boot_volume:
            raise exception.InvalidInput(
                reason='server %s boots from an image, not a volume: '
                       'reimage_boot_volume cannot be true'
                       % instance.uuid)
        block_device_mapping.check_local_root(image, _flavor(instance),
                                              zero_disk_allowed)
        values = dict(values, image_ref=image['id'])
    else:
        root = root_mapping(context, instance)
        if root is None:
            raise exception.InvalidInput(
                reason='server %s has no root disk to rebuild'
                       % instance.uuid)
        read[root.volume_id] = client.get_volume(root.volume_id)
        reimage = _check_root_volume(instance, read[root.volume_id], image,
                                     reimage_boot_volume,
                                     reimage_by_default)
    # The root volume of a server in ERROR may also be reserved: a
    # rebuild that failed after it swapped the root attachment left it
    # so, and a new rebuild is how the user repairs the server.
    volume_attachments.check_volumes_in_use(
        context, client, instance, read,
        reserved_root=(root.volume_id if root is not None and
                       instance.vm_state == fields.VmState.ERROR
                       else None))
    servers.check_host_version(context, instance,
                               compute_version.REBUILD_SERVICE_VERSION,
                               'rebuild')
    if reimage:
        _check_host_reimages(context, instance)
        check_volume_api_reimages(client)
    rpc = compute_rpcapi.get()
    rpc.check_rebuild_calls('rebuild')
    instance = db_instances.update(
        context, instance.uuid,
        dict(values, task_state=fields.TaskState.REBUILDING),
        expected_vm_state=REBUILDABLE, expected_task_state=None,
        action='rebuild', unlocked=not context.is_admin)
    db_actions.action_start(context, instance.uuid, Action.REBUILD)
    LOG.info('Rebuilding server %s with image %s (%s)', instance.uuid,
             image['id'],
             'a new local root disk' if root is None else
             'root volume %s %s' % (root.volume_id,
                                    're-imaged' if reimage else 'kept'))
    rpc.rebuild_instance(context, instance, image['id'], reimage,
                         image=image)
    return instance


def _check_root_volume(instance, root_volume, image, reimage_boot_volume,
                       reimage_by_default):
    """Whether the root volume (as the volume API shows it) is re-imaged
    (2.93 and later); below 2.93 the image must be the one the volume
    was made of."""
    if reimage_by_default:
        if reimage_boot_volume is False:
            raise exception.InvalidInput(
                reason='server %s is volume-backed: from microversion 2.93 '
                       'a rebuild re-images its root volume, so '
                       'reimage_boot_volume cannot be false'
                       % instance.uuid)
    else:
        made_from = (root_volume.get('volume_image_metadata') or
                     {}).get('image_id')
        if image['id'] != made_from:
            raise image_exception.ImageUnacceptable(
                image_id=image['id'],
                reason='Unable to rebuild with a different image for a '
                       'volume-backed server (microversion 2.93 re-images '
                       'its root volume).')
        return False
    if root_volume.get('multiattach'):
        raise exception.InvalidVolume(
            reason='the root volume %s of server %s is multiattach: '
                   'tether does not re-image a volume other servers '
                   'may use' % (root_volume['id'], instance.uuid))
    _check_fits(image, root_volume)
    return True
