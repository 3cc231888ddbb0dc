"""Writing an image into a volume, on its volume host: download through
the image API into ``[DEFAULT] image_conversion_dir``, look at what came
before trusting it (qemu_img.inspect: the data is the disk format the
image claims, and reads no other file), then let the driver convert it
into the volume. A raw image bound for a volume the driver writes raw
goes straight in as it comes (no file, no conversion), inspected and
hashed on the way, and is trusted only at the end. Where the image API's
filesystem store is readable here (``[image] allowed_direct_url_schemes``)
qemu-img reads the store's file itself, with no download at all. A
create from an image and os-reimage both do this."""

import os
import shutil
import time

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.drivers import qemu_img
from tether import image_checks
from tether import images
from tether.volume import exception
from tether.volume import volume_image

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


def _download_path(image):
    directory = CONF.image_conversion_dir
    os.makedirs(directory, exist_ok=True)
    free = shutil.disk_usage(directory).free
    if image.get('size') and image['size'] > free:
        raise exception.ImageUnacceptable(
            image_id=image['id'],
            reason='it is %s bytes and the image conversion directory %s '
                   'has %s bytes free' % (image['size'], directory, free))
    return os.path.join(directory, 'image-%s-%s'
                        % (image['id'], uuidutils.generate_uuid()))


def write_image(context, driver, volume, image_id, sparse=True,
                image=None):
    """Write image ``image_id`` into ``volume`` (with the caller's token
    where the context has one); returns the image (a dict of the image
    API). ``image``: that image as the API read it, with the caller's
    token, a moment ago (None: read it now). ``sparse`` false: the
    image's zeros are written too."""
    client = images.for_context(context)
    if image is None or image.get('id') != image_id:
        image = client.get(image_id)
    volume_image.check_fits(image, volume.size)
    local = client.local_file(image)
    if local is not None:
        _convert_local(driver, volume, image, local, sparse)
        return image
    if image['disk_format'] == 'raw' and driver.can_write_raw_image(volume):
        _stream_raw(client, driver, volume, image, sparse)
        return image
    path = _download_path(image)
    started = time.monotonic()
    try:
        size = client.download(image, path)
        downloaded = time.monotonic()
        found, virtual_size = _inspect(image, path, volume)
        driver.copy_image_to_volume(volume, path, found, sparse=sparse)
        LOG.info('Wrote image %s (%s, %s bytes, virtual size %s) into '
                 'volume %s: downloaded and checked in %.2fs, converted in '
                 '%.2fs', image_id, found, size, virtual_size, volume.id,
                 downloaded - started, time.monotonic() - downloaded)
    finally:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
    return image


def _inspect(image, path, volume):
    """(format, virtual size) of the image file ``path``, which must be
    what ``image`` claims, safe, and fit ``volume``."""
    found, virtual_size = qemu_img.inspect(path, image['disk_format'])
    if virtual_size > volume.size * volume_image.GiB:
        # The image API recorded a smaller virtual size than the data
        # has, or none.
        raise exception.ImageUnacceptable(
            image_id=image['id'],
            reason='its data has a virtual size of %s bytes, more than the '
                   '%sGB volume' % (virtual_size, volume.size))
    return found, virtual_size


def _convert_local(driver, volume, image, path, sparse):
    """The image API's own file of ``image`` (see
    ImageClient.local_file) converted into the volume with no download:
    inspected first, as a download is; its size and hash checked in a
    thread while qemu-img converts it; the volume trusted only once both
    ended well (a file that is not what the image API recorded fails
    the operation, and the caller puts the volume in error)."""
    started = time.monotonic()
    found, virtual_size = _inspect(image, path, volume)
    check = image_checks.FileCheck(image, path)
    try:
        driver.copy_image_to_volume(volume, path, found, sparse=sparse)
    finally:
        check.wait()
    LOG.info('Wrote image %s (%s, virtual size %s) into volume %s from '
             'the image store\'s file %s, checked, in %.2fs', image['id'],
             found, virtual_size, volume.id, path,
             time.monotonic() - started)


def _stream_raw(client, driver, volume, image, sparse):
    """A raw image into a raw volume: its data written as it comes, with
    no file in between and no conversion (the bytes are the disk), while
    the format inspectors and the hash read it too. The volume is not
    trusted until the end: data that is not raw (a qcow2 claiming to be
    raw) or not what the image API recorded fails the operation, and the
    caller puts the volume in error."""
    limit = volume.size * volume_image.GiB
    started = time.monotonic()
    inspection = qemu_img.StreamInspection(
        _within(client.chunks(image), limit, image['id'], volume.size),
        'raw')
    driver.write_raw_image(volume, inspection, sparse=sparse)
    found, virtual_size = inspection.verdict()
    LOG.info('Wrote image %s (%s, %s bytes) into volume %s as it came, in '
             '%.2fs', image['id'], found, virtual_size, volume.id,
             time.monotonic() - started)


def _within(chunks, limit, image_id, size_gb):
    """``chunks``, stopped with ImageUnacceptable before a byte past
    ``limit`` (the image API recorded a size that fits; the data has
    more)."""
    written = 0
    for chunk in chunks:
        written += len(chunk)
        if written > limit:
            raise exception.ImageUnacceptable(
                image_id=image_id,
                reason='its data is longer than the %sGB volume' % size_gb)
        yield chunk
