"""The snapshot of a guest's local root disk (createImage, createBackup)
by the libvirt driver (LibvirtDriver)."""

import contextlib
import os
import uuid

from oslo_log import log as logging

from tether.drivers import qemu_img
from tether.drivers.virt.libvirt import imagebackend
from tether.drivers.virt.power_state import PowerState

LOG = logging.getLogger(__name__)


class SnapshotMixin:
    """The method of LibvirtDriver that copies a guest's local root disk;
    it uses its ``host``, ``_lock`` and ``_instance_dir``."""

    def _copy_root_disk(self, instance_uuid, target):
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            disk = os.path.join(self._instance_dir(instance_uuid),
                                imagebackend.DISK_NAME)
            active = guest.is_active()
            # A running QEMU flushes what it wrote to the file and keeps
            # nothing in flight while its vCPUs are stopped, so the copy
            # is the disk at one moment (as consistent as after a crash,
            # as Nova's live snapshots are). A guest that is paused
            # already stays paused; one that is off is read as it is.
            pause = (active and
                     guest.power_state() == PowerState.RUNNING)
            if pause:
                guest.pause()
            try:
                # The overlay and its cached image below it, as one
                # file; -U: QEMU holds the file while the guest exists.
                qemu_img.export(disk, 'qcow2', target, 'qcow2',
                                force_share=active)
            finally:
                if pause:
                    guest.unpause()
        LOG.info('Copied the root disk of %s (%s) for a snapshot',
                 instance_uuid, 'paused meanwhile' if pause else
                 'not running' if not active else 'paused')

    @contextlib.contextmanager
    def snapshot(self, instance_uuid, directory):
        os.makedirs(directory, mode=0o700, exist_ok=True)
        target = os.path.join(directory, '%s-%s.qcow2' % (
            instance_uuid, uuid.uuid4().hex[:8]))
        try:
            self._copy_root_disk(instance_uuid, target)
            yield target
        finally:
            try:
                os.remove(target)
            except FileNotFoundError:
                pass
