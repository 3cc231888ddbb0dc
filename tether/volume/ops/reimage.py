"""Re-imaging a volume (os-reimage), on its volume host: the image is
written over the volume with nothing of the old data left (not sparse,
see tether.drivers.volume.driver.copy_image_to_volume), the volume's
image metadata becomes the new image's, and the volume returns to its
previous status, bootable.

A volume that was ``reserved`` is the root volume of a server the compute
service rebuilds: its compute host waits for the ``volume-reimaged``
event, ``completed``, or ``failed`` when the re-image failed (the volume
then in ``error``). Cinder sends nothing on a failure, and the compute
host learns of it only when its wait times out; tether tells it at once.
The event is a courtesy to the waiting host: when the compute API cannot
take it, that is logged and the re-image stands.
"""

from oslo_log import log as logging

from tether.db.volume import attachment as db_attachments
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import compute_client
from tether.volume import exception
from tether.volume import messages
from tether.volume import image_state
from tether.volume.ops import image_copy

LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
COMPLETED = 'completed'
FAILED = 'failed'


def _tell_compute(context, volume_id, status):
    """volume-reimaged to the servers of the volume's attachments."""
    servers = sorted({a.instance_uuid for a in
                      db_attachments.get_for_volume(context, volume_id)
                      if a.instance_uuid})
    if not servers:
        return
    client = compute_client.as_service(context)
    if client is None:
        LOG.warning('Volume %s is re-imaged (%s), and no compute API is '
                    'configured ([compute] section) to tell server %s',
                    volume_id, status, ', '.join(servers))
        return
    for server in servers:
        try:
            client.volume_reimaged(server, volume_id, status)
        except (compute_client.ComputeUnavailable,
                compute_client.EventRefused) as exc:
            LOG.warning('volume-reimaged (%s) of volume %s for server %s: '
                        '%s', status, volume_id, server, exc)
        else:
            LOG.info('volume-reimaged (%s) of volume %s sent for server '
                     '%s', status, volume_id, server)


def _fail(context, volume_id, image_id):
    previous = image_state.fail_reimage(context, volume_id, image_id)
    if previous == S.RESERVED:
        _tell_compute(context, volume_id, FAILED)


def reimage(context, driver, volume_id, image_id, image=None):
    """Write image ``image_id`` over the volume, if it is still being
    re-imaged with it (``image``: that image as the API read it; None:
    read here, with the caller's token where the context has one)."""
    try:
        volume = db_volumes.get(context, volume_id)
    except exception.VolumeNotFound:
        volume = None
    if (volume is None or not image_state.reimaging(volume) or
            volume.admin_metadata.get(image_state.REIMAGE_IMAGE_ID)
            != image_id):
        LOG.info('Volume %s is no longer being re-imaged with image %s; '
                 'nothing to do', volume_id, image_id)
        return
    try:
        image = image_copy.write_image(context, driver, volume, image_id,
                                       sparse=False, image=image)
    except Exception as exc:
        LOG.exception('Re-imaging volume %s with image %s failed: the '
                      'volume is in error', volume_id, image_id)
        messages.record(context, messages.Action.REIMAGE_VOLUME, volume_id,
                        volume.project_id, exception=exc)
        _fail(context, volume_id, image_id)
        return
    previous = image_state.end_reimage(context, volume_id, image)
    if previous is None:
        LOG.warning('Volume %s changed state while it was re-imaged with '
                    'image %s', volume_id, image_id)
        return
    LOG.info('Volume %s is re-imaged with image %s', volume_id, image_id)
    if previous == S.RESERVED:
        _tell_compute(context, volume_id, COMPLETED)


def take_up(context, driver, volume):
    """A volume being re-imaged that no message drives any more (found at
    a restart, or left too long): the image it names is written again,
    as the service; with none named, the re-image fails."""
    image_id = volume.admin_metadata.get(image_state.REIMAGE_IMAGE_ID)
    if image_id:
        LOG.info('Volume %s was left being re-imaged with image %s: '
                 'writing it again', volume.id, image_id)
        reimage(context, driver, volume.id, image_id)
    else:
        LOG.warning('Volume %s was left being re-imaged with no image '
                    'recorded: it is in error', volume.id)
        _fail(context, volume.id, None)
