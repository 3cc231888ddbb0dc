"""The rescue methods of the libvirt driver (LibvirtDriver): a guest made
again booting from a rescue disk, its own disks after it, and made again
as it was.

As Nova's libvirt driver, the guest's own (persistent) definition is
kept beside it, ``<instance dir>/unrescue.xml``, and the rescue disk is
``<instance dir>/disk.rescue``, a qcow2 overlay on the rescue image's
copy in the host's image cache (which keeps that copy while the rescue
disk is made of it). The rescue disk is the next free SCSI disk name,
first in the boot order; the guest's disks keep their names, addresses
and serials (Nova's stable device rescue, for every server: tether's
guests have no other disk bus to move a root disk to). A delete removes
the instance directory, and with it both files.
"""

import os

from oslo_log import log as logging
from oslo_utils import excutils

from tether.compute import exception
from tether.drivers.virt.libvirt import config
from tether.drivers.virt.libvirt import imagebackend
from tether.drivers.virt.libvirt import parse

LOG = logging.getLogger(__name__)

UNRESCUE_XML = 'unrescue.xml'


def _remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _write(path, text):
    """Write ``text`` to ``path`` whole or not at all."""
    part = path + '.part'
    with open(part, 'w') as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.rename(part, path)


class RescueMixin:
    """The methods of LibvirtDriver that rescue and unrescue a guest; they
    use its ``host``, ``_lock``, ``image_cache`` and ``_instance_dir``."""

    def _rescue_paths(self, instance_uuid):
        """(kept definition, rescue disk) of the guest."""
        directory = self._instance_dir(instance_uuid)
        if directory is None:
            raise exception.VirtError(
                reason='a rescue needs [DEFAULT] instances_path')
        return (os.path.join(directory, UNRESCUE_XML),
                os.path.join(directory, imagebackend.RESCUE_DISK_NAME))

    def is_rescued(self, instance_uuid):
        if self._instance_dir(instance_uuid) is None:
            return False
        return os.path.exists(self._rescue_paths(instance_uuid)[0])

    def rescue(self, instance, rescue_image):
        if self.image_cache is None:
            raise exception.VirtError(
                reason='a rescue disk made of an image needs [DEFAULT] '
                       'instances_path')
        kept, rescue_disk = self._rescue_paths(instance.uuid)
        with self._lock(instance.uuid):
            guest = self.host.lookup(instance.uuid)
            if os.path.exists(kept):
                # A rescue that did not finish (or a second one): the
                # guest's own definition is the kept one.
                with open(kept) as f:
                    original = f.read()
            else:
                original = guest.xml(inactive=True)
            used = {d.target for d in parse.disks(original)}
            spec = config.Disk(path=rescue_disk, fmt='qcow2',
                               target=config.next_free_disk(used),
                               boot_order=1)
            rescue_xml = config.with_rescue_disk(original, spec)
            _write(kept, original)
            try:
                _remove(rescue_disk)
                size = self.image_cache.create_disk(rescue_disk,
                                                    rescue_image)
                guest.destroy()
                guest.forget_saved_memory()
                guest = self.host.define(rescue_xml, instance.uuid)
                guest.start()
            except Exception:
                with excutils.save_and_reraise_exception():
                    LOG.warning('The rescue of %r failed; its own '
                                'definition is put back', guest)
                    self._put_back(instance.uuid, original)
        LOG.info('Rescued %r: it boots from %s (%s, %d bytes, image %s)',
                 guest, spec.target, rescue_disk, size,
                 rescue_image.image_id)

    def _put_back(self, instance_uuid, original):
        """The guest off and defined as ``original``, with no rescue
        disk or kept definition left."""
        kept, rescue_disk = self._rescue_paths(instance_uuid)
        try:
            self.host.lookup(instance_uuid).destroy()
        except exception.InstanceNotFound:
            pass
        self.host.define(original, instance_uuid)
        _remove(rescue_disk)
        _remove(kept)

    def unrescue(self, instance_uuid):
        kept, _rescue_disk = self._rescue_paths(instance_uuid)
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            if os.path.exists(kept):
                with open(kept) as f:
                    self._put_back(instance_uuid, f.read())
                guest = self.host.lookup(instance_uuid)
            # Else an unrescue that failed after the guest was put back
            # (at its start): this one starts it.
            if not guest.is_active():
                guest.start()
        LOG.info('Unrescued %r', guest)
