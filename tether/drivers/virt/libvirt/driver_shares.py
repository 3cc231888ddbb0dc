"""The share methods of the libvirt driver (LibvirtDriver): Manila shares
mounted on the host (shares.py) and given to its guests as virtio-fs
devices, with the shared guest memory virtio-fs needs."""

from oslo_log import log as logging

from tether.compute import exception
from tether.compute import share_exception
from tether.drivers.virt.libvirt import config
from tether.drivers.virt.libvirt import parse
from tether.drivers.virt.libvirt import shares as host_shares

LOG = logging.getLogger(__name__)


class SharesMixin:
    """The methods of LibvirtDriver about shares; they use its ``conf``
    (the ``[libvirt]`` options) and ``host`` (the libvirt Host)."""

    def _memory_backing(self, shared):
        """Guest memory from files when ``file_backed_memory`` says so
        (shared, as virtio-fs needs); else, for a guest with shares
        (``shared``), from memfd, shared; else QEMU's own."""
        if self.conf.file_backed_memory > 0:
            return config.memory_backing('file', shared=True, discard=True)
        if shared:
            return config.memory_backing('memfd', shared=True)
        return None

    @staticmethod
    def _filesystems(shares):
        return [config.filesystem(s.source_dir, s.tag) for s in shares]

    def _define_shares(self, guest, shares):
        """Make the persistent definition of the stopped ``guest`` hold
        exactly the virtio-fs devices of ``shares`` (and the memory they
        need); the rest of it stays as it is."""
        xml = config.with_filesystems(
            guest.xml(inactive=True), self._filesystems(shares),
            self._memory_backing(bool(shares)))
        self.host.define(xml, guest.uuid)
        if shares:
            LOG.info('%r starts with the shares %s', guest,
                     ', '.join(s.tag for s in shares))

    def share_mount_path(self, share_id):
        return host_shares.mount_path(self.conf.share_mount_point_base,
                                      share_id)

    def mount_share(self, share):
        return host_shares.mount(share, self.conf.share_mount_point_base)

    def _guests_using(self, path):
        """The running guests that have ``path`` as a virtio-fs share."""
        found = []
        for guest in self.host.list_guests():
            try:
                if guest.is_active() and path in [
                        source for source, _tag
                        in parse.filesystems(guest.xml())]:
                    found.append(guest)
            except exception.InstanceNotFound:
                pass   # removed since it was listed
        return found

    def umount_share(self, share_id):
        # A guest's virtiofsd holds the share in a mount namespace of its
        # own: the host's umount would succeed and the guest go on using
        # it (ceph-fuse lives on until virtiofsd ends). So ask libvirt.
        users = self._guests_using(self.share_mount_path(share_id))
        if users:
            raise share_exception.ShareUnmountFailed(
                share_id=share_id, reason='running guests use it: %s'
                % ', '.join(g.uuid for g in users))
        return host_shares.umount(share_id,
                                  self.conf.share_mount_point_base)
