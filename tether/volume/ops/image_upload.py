"""Uploading a volume to an image (os-volume_upload_image), on its volume
host: the driver writes the volume's data to a file of the image's disk
format in ``[DEFAULT] image_conversion_dir`` (qemu-img), the file is
streamed into the image the API created (``queued``, owned by the
caller's project) with the caller's token, and the volume returns to its
previous status. A failure deletes the image if it holds no data (it is
``queued`` or ``saving``), and the volume returns all the same.
"""

import os

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db.volume import volume as db_volumes
from tether import images
from tether.objects import fields
from tether.volume import exception
from tether.volume import messages
from tether.volume import image_state

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
# The statuses of an image whose data never came whole: nobody can use
# it, and it goes. A failed upload leaves the image ``queued`` again (or
# ``saving``, if the image API itself stopped); ``killed`` is its status
# of a store that failed.
UNFINISHED = ('queued', 'saving', 'killed')


def _uploading(context, volume_id, image_id):
    """The volume if it is still uploading to ``image_id``, else None."""
    try:
        volume = db_volumes.get(context, volume_id)
    except exception.VolumeNotFound:
        return None
    if (volume.status != S.UPLOADING or
            volume.admin_metadata.get(image_state.UPLOAD_IMAGE_ID)
            != image_id):
        return None
    return volume


def _write(client, driver, volume, image):
    directory = CONF.image_conversion_dir
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, 'upload-%s-%s'
                        % (image['id'], uuidutils.generate_uuid()))
    try:
        # An in-use volume (a forced upload): a guest may hold the file.
        driver.copy_volume_to_image(
            volume, path, image['disk_format'],
            force_share=volume.previous_status == S.IN_USE)
        LOG.info('Uploading volume %s to image %s (%s, %s bytes)',
                 volume.id, image['id'], image['disk_format'],
                 os.path.getsize(path))
        client.upload(image['id'], path)
    finally:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def delete_unfinished(client, image_id):
    """Delete the image if it holds no data; a failure is logged."""
    try:
        found = client.get(image_id)
        if found.get('status') in UNFINISHED:
            LOG.warning('Deleting image %s, %s: the upload of its volume '
                        'did not finish', image_id, found.get('status'))
            client.delete(image_id, protected=found.get('protected'))
    except exception.ImageNotFound:
        pass
    except Exception:
        LOG.warning('Could not delete the unfinished image %s', image_id,
                    exc_info=True)


def copy_volume_to_image(context, driver, volume_id, image):
    """Write the volume into the image ``image`` (a dict: id, disk and
    container format) if the volume is still uploading to it."""
    volume = _uploading(context, volume_id, image['id'])
    if volume is None:
        # (Force deleted before the upload began, say: the image would
        # stay queued for ever.)
        LOG.info('Volume %s is no longer uploading to image %s; the image '
                 'goes if it holds no data', volume_id, image['id'])
        delete_unfinished(images.for_context(context), image['id'])
        return
    client = images.for_context(context)
    try:
        _write(client, driver, volume, image)
    except Exception:
        LOG.exception('Uploading volume %s to image %s failed; the volume '
                      'returns to %s', volume_id, image['id'],
                      volume.previous_status)
        delete_unfinished(client, image['id'])
        messages.record(context, messages.Action.COPY_VOLUME_TO_IMAGE,
                        volume_id, volume.project_id,
                        detail=messages.Detail.FAILED_TO_UPLOAD_VOLUME)
        image_state.end_upload(context, volume_id, image['id'])
        return
    if image_state.end_upload(context, volume_id, image['id']):
        LOG.info('Volume %s is uploaded to image %s', volume_id,
                 image['id'])
    else:
        LOG.warning('Volume %s changed state while it was uploaded to '
                    'image %s', volume_id, image['id'])


def give_up(context, volume):
    """An ``uploading`` volume no upload runs for (found at a restart, or
    left too long): its image goes if it holds no data, and the volume
    returns to its previous status. An image the upload finished is
    kept."""
    image_id = volume.admin_metadata.get(image_state.UPLOAD_IMAGE_ID)
    if image_id:
        delete_unfinished(images.for_context(context), image_id)
    LOG.warning('Volume %s was left uploading to image %s: it returns to '
                '%s', volume.id, image_id, volume.previous_status)
    image_state.end_upload(context, volume.id, image_id)
