"""What the compute manager does for a rebuild (the API claimed the server
with task_state ``rebuilding``).

The guest is powered off (its OS asked first, ``[DEFAULT]
shutdown_timeout``) and removed. A volume-backed server whose root volume
is re-imaged, as Nova's volume-backed rebuild does it:

1. an empty attachment (no connector) of the root volume for the server,
   its id saved in the block device mapping, then the old attachment
   deleted: the volume stays ``reserved``, the state the volume service
   re-images it from;
2. ``os-reimage`` with ``reimage_reserved``, and a wait for the
   ``volume-reimaged`` event, at most ``[DEFAULT] reimage_timeout_per_gb``
   seconds per GiB of the image (never 0: an image of size 0 still
   counts one GiB);
3. ``rebuild_block_device_mapping``: the new attachment connected and its
   connection info saved;
4. ``rebuild_spawning``: the guest made again with every volume of the
   server (the others kept their attachments throughout), started unless
   the server was stopped, and the root attachment completed.

A root volume kept as it is (below microversion 2.93, same image) skips
1 and 2. A server booted from an image has no root volume: the guest is
removed with its local root disk, and step 4 makes a new root disk of
the new image (through the host's image cache, as for a new server);
its volumes keep their attachments.

Failures: the volume API refusing (or failing) the re-image leaves the
root volume as it was: the guest is made again as it was, the server
goes back to the state it had and the rebuild's action event fails. A
re-image that failed (the event's status ``failed``) or that did not
answer in time puts the server in ERROR with a fault; rebuilding it
again works once the cause is fixed. A delete that comes while the
rebuild waits ends the wait: the delete finishes the job.
"""

import dataclasses
import time

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import excutils
from oslo_utils import timeutils

from tether.compute import exception
from tether.compute.ops import block_device_mapping
from tether.compute.ops import instance_actions
from tether.compute.ops import notifications
from tether.compute.ops import server_shares
from tether.compute.ops import servers
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import instance as db_instances
from tether.drivers.virt.power_state import PowerState
from tether import images
from tether.objects.compute import instance as instance_obj
from tether.objects import fields
from tether.objects.compute import status as server_status

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
GiB = 1024 ** 3

VmState = fields.VmState
TaskState = fields.TaskState
REIMAGED = 'volume-reimaged'
# How often a rebuild that waits for its volume looks for a delete.
_POLL = 1.0


class _Refused(Exception):
    """The volume API refused the re-image: the root volume is as it was."""


def _notify(context, host, instance, event, error=None, image_id=None):
    notifications.send(context, host, instance, 'rebuild.%s' % event,
                       error=error, image_id=image_id)


def _timeout(image):
    """Seconds to wait for the re-image of ``image``: per started GiB,
    at least one (a snapshot image of Glance size 0 is no 0 s wait)."""
    gib = max(1, -(-int(image.get('size') or 0) // GiB))
    return CONF.reimage_timeout_per_gb * gib


def _task(context, instance, task, expected):
    return db_instances.update(context, instance.uuid, {'task_state': task},
                               expected_task_state=expected,
                               action='rebuild')


def _remove_guest(host, instance):
    """Power the guest off (its OS asked first), then remove it."""
    try:
        state = host.driver.get_info(instance.uuid).state
    except exception.InstanceNotFound:
        return
    if state == PowerState.RUNNING:
        host.driver.power_off(instance.uuid, CONF.shutdown_timeout)
    host.driver.destroy(instance.uuid)


def _swap_root_attachment(context, client, instance, root):
    """An empty attachment of the root volume in place of the old one:
    the volume stays ``reserved`` for the server."""
    new = client.create_attachment(root.volume_id, instance.uuid)
    db_bdms.update(context, root.id,
                   {'attachment_id': new['id'], 'connection_info': None,
                    'status': fields.BdmStatus.ATTACHING})
    if root.attachment_id:
        client.delete_attachment(root.attachment_id)
    return new['id']


def _root(context, instance):
    for bdm in db_bdms.get_by_instance(context, instance.uuid):
        if bdm.boot_index == 0:
            return bdm
    return None


def _wait(context, instance, waiter, timeout, volume_id):
    """The event's status; a delete of the server ends the wait."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            return waiter.wait(max(0.0, min(_POLL, left)))
        except exception.EventTimeout:
            if servers.being_deleted(context, instance.uuid):
                raise exception.InstanceInvalidState(
                    action='rebuild', instance_id=instance.uuid,
                    attr='task_state', state=TaskState.DELETING)
            if left <= _POLL:
                raise exception.ReimageFailed(
                    volume_id=volume_id,
                    reason='the volume service did not answer with '
                           'volume-reimaged within %s seconds' % timeout)


def _reimage(context, host, client, instance, root, image):
    """Steps 1 and 2: returns when the root volume has the new image."""
    _swap_root_attachment(context, client, instance, root)
    with host.events.expect(instance.uuid, REIMAGED, root.volume_id) \
            as waiter:
        with instance_actions.recorded(context, instance.uuid,
                                       'compute_reimage_boot_volume',
                                       host.host):
            try:
                client.reimage(root.volume_id, image['id'],
                               reimage_reserved=True)
            except exception.VolumeAPIError as exc:
                raise _Refused(exc)
            timeout = _timeout(image)
            LOG.info('Waiting up to %ss for volume %s of server %s to be '
                     're-imaged with %s', timeout, root.volume_id,
                     instance.uuid, image['id'])
            status = _wait(context, instance, waiter, timeout,
                           root.volume_id)
            if status != 'completed':
                raise exception.ReimageFailed(
                    volume_id=root.volume_id,
                    reason='the volume service answered volume-reimaged '
                           'with status %s' % status)


def _local_root(context, instance):
    """The mapping of the local root disk of a server booted from an
    image (None for a volume-backed server)."""
    return next((bdm for bdm in db_bdms.get_all_by_instance(
        context, instance.uuid) if bdm.is_local_image), None)


def _connect(context, host, client, instance, local=None):
    """Connect what has no connection yet (the new root attachment);
    the connection infos of every volume, the root's first. With a local
    root disk (``local``), the volumes come after it."""
    bdms = sorted(db_bdms.get_by_instance(context, instance.uuid),
                  key=lambda b: (b.boot_index != 0, b.id))
    connector = host.driver.get_volume_connector()
    names = host.driver.boot_device_names(len(bdms) + (local is not None))
    if local is not None:
        names = names[1:]
    infos = []
    for bdm, name in zip(bdms, names):
        info = bdm.connection_info
        if info is None:
            attachment = client.update_attachment(
                bdm.attachment_id, dict(connector, mountpoint=name))
            info = attachment['connection_info']
            db_bdms.update(context, bdm.id, {'connection_info': info})
        infos.append(info)
    return bdms, infos


def _spawn(context, host, client, instance, bdms, infos, power_on,
           local=None):
    """The guest made again (on a new local root disk of the mapping's
    image, for ``local``)."""
    root_image = (block_device_mapping.root_image(context, instance, local)
                  if local is not None else None)
    # A server that starts gets its shares (mounted again: the server
    # never left its host); a stopped one gets them at its next start.
    guest_shares = (server_shares.mount_all(context, host, instance)
                    if power_on else [])
    try:
        devices = host.driver.spawn(servers.guest_spec(instance), infos,
                                    power_on=power_on, root_image=root_image,
                                    shares=guest_shares)
    except Exception:
        with excutils.save_and_reraise_exception():
            server_shares.unmount_all(context, host, instance)
    for bdm, device in zip(bdms, devices):
        if bdm.status != fields.BdmStatus.ATTACHED:
            client.complete_attachment(bdm.attachment_id)
        db_bdms.update(context, bdm.id,
                       {'device_name': device,
                        'status': fields.BdmStatus.ATTACHED})


def _restore(context, host, client, instance, orig_vm_state):
    """The re-image was refused: the server as it was (its root volume
    unchanged, connected again through the new attachment)."""
    try:
        bdms, infos = _connect(context, host, client, instance)
        if orig_vm_state != VmState.ERROR:
            _spawn(context, host, client, instance, bdms, infos,
                   power_on=orig_vm_state == VmState.ACTIVE)
    finally:
        power = (PowerState.RUNNING if orig_vm_state == VmState.ACTIVE
                 else PowerState.SHUTDOWN)
        db_instances.update(
            context, instance.uuid,
            {'task_state': None, 'vm_state': orig_vm_state,
             'power_state': power},
            expected_task_state=TaskState.REBUILDING, action='rebuild')


def _fail(context, instance, exc):
    """The server in ERROR with the fault, unless a delete came."""
    try:
        db_instances.update(
            context, instance.uuid,
            {'vm_state': VmState.ERROR, 'task_state': None,
             'fault': instance_obj.fault_of(exc)},
            expected_task_state=tuple(server_status.REBUILDS),
            action='rebuild')
    except (exception.InstanceInvalidState, exception.InstanceNotFound):
        LOG.info('Server %s moved on (deleted?) while its rebuild failed',
                 instance.uuid)


def rebuild(context, host, instance, image_id, reimage_boot_volume,
            image=None):
    """Rebuild the server (see the module's docstring); ``image``: the
    image as the API read it with the caller's token (None: read it
    here)."""
    orig_vm_state = instance.vm_state
    client = volume_client.as_service(context)
    _notify(context, host, instance, 'start', image_id=image_id)
    restored = False
    try:
        if image is None or image.get('id') != image_id:
            image = images.for_context(context).get(image_id)
        _remove_guest(host, instance)
        server_shares.unmount_all(context, host, instance)
        local = _local_root(context, instance)
        if local is not None:
            # The new root disk is made of the new image.
            db_bdms.update(context, local.id, {'image_id': image_id})
            local = dataclasses.replace(local, image_id=image_id)
        root = _root(context, instance)
        if reimage_boot_volume and local is None:
            try:
                _reimage(context, host, client, instance, root, image)
            except _Refused as refused:
                LOG.error('The volume service refused to re-image volume '
                          '%s of server %s: %s', root.volume_id,
                          instance.uuid, refused)
                restored = True
                _restore(context, host, client, instance, orig_vm_state)
                raise exception.ReimageFailed(volume_id=root.volume_id,
                                              reason=str(refused))
        _task(context, instance, TaskState.REBUILD_BLOCK_DEVICE_MAPPING,
              TaskState.REBUILDING)
        bdms, infos = _connect(context, host, client, instance, local)
        _task(context, instance, TaskState.REBUILD_SPAWNING,
              TaskState.REBUILD_BLOCK_DEVICE_MAPPING)
        stopped = orig_vm_state == VmState.STOPPED
        _spawn(context, host, client, instance, bdms, infos,
               power_on=not stopped, local=local)
        instance = db_instances.update(
            context, instance.uuid,
            {'vm_state': VmState.STOPPED if stopped else VmState.ACTIVE,
             'task_state': None,
             'power_state': (PowerState.SHUTDOWN if stopped
                             else PowerState.RUNNING),
             'launched_at': timeutils.utcnow(), 'fault': None},
            expected_task_state=TaskState.REBUILD_SPAWNING,
            action='rebuild')
    except exception.ServiceStopping:
        # Left as it is, rebuilding: the recovery of the next start of
        # tether-compute settles it (as after a crash).
        LOG.warning('tether-compute stops: the rebuild of server %s is '
                    'left for the recovery at its next start',
                    instance.uuid)
        raise
    except Exception as exc:
        if servers.being_deleted(context, instance.uuid):
            # The delete that overtook the rebuild finishes the job.
            LOG.info('Rebuild of server %s stopped: it is being deleted',
                     instance.uuid)
            return None
        LOG.error('Rebuild of server %s failed: %s', instance.uuid, exc)
        if not restored:
            _fail(context, instance, exc)
        _notify(context, host, instance, 'error', error=exc,
                image_id=image_id)
        raise
    _notify(context, host, instance, 'end', image_id=image_id)
    return instance
