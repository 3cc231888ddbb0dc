"""What the compute manager does with the disks of a server it builds
(its block device mappings), as Nova does: makes the volume of each
mapping ``image -> volume``, ``snapshot -> volume`` and ``blank ->
volume`` through the volume API and waits for it,
gives the local root disk the image it is made of, and, when a build
fails, removes what the build made.
"""

import time

from oslo_config import cfg
from oslo_log import log as logging

from tether.compute import exception
from tether.compute import image_exception
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.drivers.virt import driver as virt_driver
from tether import images

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

# The statuses of a volume the volume service is still making.
_MAKING = ('creating', 'downloading')


def _wait_available(client, volume_id, instance_uuid, aborted):
    """The volume once it is available; VolumeNotCreated when it ends in
    another status or is still being made after
    ``block_device_allocate_retries`` more looks (Nova's wait);
    BuildAborted as soon as ``aborted()`` says the server is being
    deleted."""
    attempts = CONF.block_device_allocate_retries + 1
    interval = CONF.block_device_allocate_retries_interval
    start = time.monotonic()
    for attempt in range(1, attempts + 1):
        volume = client.get_volume(volume_id)
        status = volume['status']
        if status == 'available':
            return volume
        if status not in _MAKING:
            LOG.warning('Volume %s finished being created but its status '
                        'is %s', volume_id, status)
            break
        if attempt < attempts:
            time.sleep(interval)
        reason = aborted()
        if reason:
            raise image_exception.BuildAborted(instance_id=instance_uuid,
                                               reason=reason)
    raise image_exception.VolumeNotCreated(
        volume_id=volume_id, seconds=int(time.monotonic() - start),
        attempts=attempt, volume_status=status)


def make_volumes(context, instance, aborted):
    """Make the volume of every mapping ``image``, ``snapshot`` or
    ``blank -> volume`` of the instance that has none yet, in boot
    order, and reserve it for the
    instance (an attachment without a connector, as the API reserves a
    volume the user gave).

    The volume and its attachment are made with the token of the user
    who asked for the server (the volume is theirs, counted in their
    project's quota), and each is recorded in the mapping as soon as it
    exists, so that a failure, a delete or a restart finds it.
    ``aborted()`` returns why the build should stop (the server is being
    deleted), or None.
    """
    client = volume_client.for_context(context)
    for bdm in db_bdms.get_by_instance(context, instance.uuid):
        if not bdm.made_by_host or bdm.attachment_id:
            continue
        volume_id = bdm.volume_id
        if volume_id is None:
            volume = client.create_volume(bdm.volume_size,
                                          image_id=bdm.image_id,
                                          snapshot_id=bdm.snapshot_id)
            volume_id = volume['id']
            db_bdms.update(context, bdm.id, {'volume_id': volume_id})
            LOG.info('Made volume %s of %s for instance %s', volume_id,
                     'image %s' % bdm.image_id if bdm.image_id else
                     'snapshot %s' % bdm.snapshot_id if bdm.snapshot_id
                     else 'nothing', instance.uuid)
        _wait_available(client, volume_id, instance.uuid, aborted)
        attachment = client.create_attachment(volume_id, instance.uuid)
        db_bdms.update(context, bdm.id,
                       {'attachment_id': attachment['id']})


def root_image(context, instance, bdm):
    """The :class:`~tether.drivers.virt.driver.RootImage` of the local
    root disk ``bdm``: the driver fetches the image, with the token of
    the user who asked for the server where the request carried one,
    only if the host has no copy of it yet."""
    client = images.for_context(context)
    image_id = bdm.image_id

    def fetch(path):
        image = client.get(image_id)
        if image.get('status') != 'active':
            raise image_exception.ImageNotActive(image_id=image_id)
        client.download(image, path)
        return image['disk_format']

    return virt_driver.RootImage(
        image_id=image_id, size_gb=int(instance.flavor.get('root_gb') or 0),
        fetch=fetch)


def delete_volume(client, volume_id):
    """Delete a volume that goes with its server (delete_on_termination).

    A volume the volume service is still making (the server was deleted
    while its build waited for it) cannot be deleted yet: it is waited
    for, as long as a build waits for a volume, then deleted.
    """
    attempts = CONF.block_device_allocate_retries + 1
    for attempt in range(1, attempts + 1):
        try:
            client.delete_volume(volume_id)
            return
        except exception.VolumeNotFound:
            return
        except exception.VolumeAPIRefused:
            try:
                status = client.get_volume(volume_id)['status']
            except exception.VolumeNotFound:
                return
            if status not in _MAKING or attempt == attempts:
                raise
            LOG.info('Volume %s is %s; it is deleted once made', volume_id,
                     status)
            time.sleep(CONF.block_device_allocate_retries_interval)


def _delete_attachment(client, bdm, instance_uuid):
    """Delete the attachment of ``bdm``; False (logged) when the volume
    API refused or failed."""
    try:
        client.delete_attachment(bdm.attachment_id)
    except exception.TetherException:
        LOG.exception('Could not delete attachment %s of volume %s of '
                      'instance %s', bdm.attachment_id, bdm.volume_id,
                      instance_uuid)
        return False
    return True


def release_volumes(context, client, instance_uuid):
    """Delete the attachment of every volume of the instance and its row.

    The volumes go back to ``available`` (the guest no longer uses them).
    """
    for bdm in db_bdms.get_by_instance(context, instance_uuid):
        if bdm.attachment_id and not _delete_attachment(client, bdm,
                                                        instance_uuid):
            continue
        db_bdms.destroy(context, bdm.id)


def release_after_failure(context, client, instance_uuid):
    """A build that failed or was interrupted gives back what it held:
    every attachment is deleted (the volumes the user gave are available
    again), and a volume the build made of an image is deleted if its
    mapping says ``delete_on_termination`` (as Nova does).

    Every row goes, except that of a made volume that could not be
    deleted (the volume service still makes it): that row stays,
    without an attachment, so that deleting the server deletes the
    volume. Returns the rows kept.
    """
    kept = []
    for bdm in db_bdms.get_all_by_instance(context, instance_uuid):
        if bdm.attachment_id and not _delete_attachment(client, bdm,
                                                        instance_uuid):
            kept.append(bdm)
            continue
        if (bdm.made_by_host and bdm.delete_on_termination and
                bdm.volume_id):
            try:
                client.delete_volume(bdm.volume_id)
            except exception.VolumeNotFound:
                pass
            except exception.TetherException as exc:
                LOG.warning('Could not delete volume %s made for instance '
                            '%s (it goes with the server): %s',
                            bdm.volume_id, instance_uuid, exc)
                db_bdms.update(context, bdm.id, {'attachment_id': None})
                kept.append(bdm)
                continue
        db_bdms.destroy(context, bdm.id)
    return kept
