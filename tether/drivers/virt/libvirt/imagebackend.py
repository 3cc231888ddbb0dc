"""Local root disks made of images (Nova's qcow2 image backend), and the
host's cache of the images they are made of.

The first guest of an image on a host has its image downloaded into the
cache, ``<instances_path>/<[image_cache] subdirectory_name>/<image id>``
(``_base``), once per host: the data is checked against the image API's
hash while it comes (``RootImage.fetch``), inspected before any qemu-img
reads it (qemu_img.inspect: it is the disk format it claims, and reads no
other file), and made raw (Nova's default, ``force_raw_images``). Each
guest's root disk is then a qcow2 overlay on it,
``<instances_path>/<uuid>/disk``, of the size the flavor gives the root
disk (0: the image's virtual size): the guest's writes go to the overlay,
the cached image is only read.

One lock per image (oslo.concurrency, a file lock under
``<instances_path>/locks``, as Nova's) covers the download and the
making of an overlay, and the removal of an unused image: two builds of
the same image download it once, and an image is never removed between
the moment a build finds it and the moment its overlay exists.
"""

import os
import time

from oslo_concurrency import lockutils
from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.compute import exception
from tether.compute import image_exception
from tether.drivers import qemu_img

LOG = logging.getLogger(__name__)

GiB = 1024 ** 3
# A guest's root disk, in its instance directory (Nova's name).
DISK_NAME = 'disk'
# A rescued guest's rescue disk, beside it (Nova's name).
RESCUE_DISK_NAME = 'disk.rescue'
LOCKS_DIR = 'locks'
# The files of a download or a conversion under way, beside the image.
_PART = '.part'
_CONVERTING = '.converting'
# Formats whose data is the disk as a guest reads it.
_RAW = ('raw', 'iso')


def _remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _makedirs(path):
    # QEMU (libvirt-qemu) passes through to the disks and reads the
    # cached images.
    os.makedirs(path, mode=0o755, exist_ok=True)


class ImageCache:
    """The cached images under ``instances_path``."""

    def __init__(self, instances_path, subdirectory='_base'):
        self.instances_path = instances_path
        self.base_dir = os.path.join(instances_path, subdirectory)
        self.lock_path = os.path.join(instances_path, LOCKS_DIR)

    def path(self, image_id):
        """Where the image ``image_id`` is (or would be) cached."""
        if not uuidutils.is_uuid_like(image_id):
            # It names a file: only an image ID may.
            raise exception.InvalidInput(
                reason='%r is not an image ID' % (image_id,))
        return os.path.join(self.base_dir, image_id)

    def lock(self, image_id):
        return lockutils.lock('image-%s' % image_id,
                              lock_file_prefix='tether-', external=True,
                              lock_path=self.lock_path)

    # Making a root disk ----------------------------------------------------

    def _download(self, image, base):
        """Fetch ``image`` (a RootImage) into the cache as ``base``: under
        the image's lock, where anything left of an earlier download is
        a crash's and goes."""
        part, converting = base + _PART, base + _CONVERTING
        _remove(part)
        _remove(converting)
        LOG.info('Downloading image %s into the image cache',
                 image.image_id)
        start = time.monotonic()
        try:
            claimed = image.fetch(part)
            found, virtual_size = qemu_img.inspect(part, claimed)
            if found in _RAW:
                os.chmod(part, 0o644)
                os.rename(part, base)
            else:
                qemu_img.convert(part, found, converting, 'raw',
                                 existing=False)
                os.chmod(converting, 0o644)
                os.rename(converting, base)
        finally:
            _remove(part)
            _remove(converting)
        LOG.info('Cached image %s (%s, virtual size %d bytes) in %.1f s',
                 image.image_id, found, virtual_size,
                 time.monotonic() - start)

    def create_disk(self, path, image):
        """Make ``path`` a root disk of ``image`` (a RootImage): a qcow2
        overlay on the cached image, downloaded first if the host has
        none. Returns the disk's size in bytes; RootDiskTooSmall if the
        image does not fit ``image.size_gb``."""
        _makedirs(self.base_dir)
        base = self.path(image.image_id)
        with self.lock(image.image_id):
            if os.path.exists(base):
                # Used now: the image cache manager keeps it.
                os.utime(base)
            else:
                self._download(image, base)
            virtual_size = os.stat(base).st_size
            size = image.size_gb * GiB if image.size_gb else virtual_size
            if virtual_size > size:
                raise image_exception.RootDiskTooSmall(
                    image_id=image.image_id, image_size=virtual_size,
                    disk_size=size)
            qemu_img.create_overlay(path, base, 'raw', size)
        return size

    # The image cache manager -----------------------------------------------

    def cached(self):
        """{image id: path} of the images in the cache."""
        try:
            names = os.listdir(self.base_dir)
        except FileNotFoundError:
            return {}
        return {name: os.path.join(self.base_dir, name) for name in names
                if uuidutils.is_uuid_like(name)}

    def _disks(self):
        """The root and rescue disks of the guests of this host."""
        try:
            names = os.listdir(self.instances_path)
        except FileNotFoundError:
            return
        for name in names:
            if not uuidutils.is_uuid_like(name):
                continue
            for disk_name in (DISK_NAME, RESCUE_DISK_NAME):
                disk = os.path.join(self.instances_path, name, disk_name)
                if os.path.isfile(disk):
                    yield disk

    def backing_images(self):
        """The IDs of the cached images that a root disk (or a rescue
        disk) on this host is made of (whatever the database says: the
        disks are the truth)."""
        found = set()
        for disk in self._disks():
            try:
                backing = qemu_img.info(disk, 'qcow2',
                                        force_share=True).backing_file
            except exception.TetherException as exc:
                LOG.warning('Cannot read the root disk %s: %s', disk, exc)
                continue
            if backing and os.path.dirname(backing) == self.base_dir:
                found.add(os.path.basename(backing))
        return found

    def _remove_if_unused(self, image_id, path, min_age_seconds):
        """Remove a cached image no disk is made of and no one used for
        ``min_age_seconds``, under its lock (a build that found it holds
        the lock until its overlay exists, and makes it young again)."""
        with self.lock(image_id):
            try:
                age = time.time() - os.stat(path).st_mtime
            except FileNotFoundError:
                return False
            if age < min_age_seconds:
                LOG.debug('Cached image %s is unused but %.0f s young',
                          image_id, age)
                return False
            if image_id in self.backing_images():
                return False
            LOG.info('Removing image %s from the image cache: no guest of '
                     'this host used it for %.0f s', image_id, age)
            _remove(path)
            _remove(path + _PART)
            _remove(path + _CONVERTING)
            return True

    def manage(self, images_in_use, remove_unused=True, min_age_seconds=0):
        """Mark used now the cached images of ``images_in_use`` and those
        root disks are made of; remove the others that no one used for
        ``min_age_seconds`` if ``remove_unused``. The IDs removed."""
        cached = self.cached()
        used = set(images_in_use) | self.backing_images()
        removed = []
        for image_id, path in sorted(cached.items()):
            if image_id in used:
                try:
                    os.utime(path)
                except FileNotFoundError:
                    pass
                continue
            if remove_unused and self._remove_if_unused(image_id, path,
                                                        min_age_seconds):
                removed.append(image_id)
        return removed
