"""The interface between the compute manager and a hypervisor driver.

A driver gets plain values (these dataclasses, connection info dicts, UUID
strings) and knows nothing of the database, the objects' persistence or
the API.
"""

import dataclasses
import typing

from oslo_utils import importutils

from tether.drivers.virt.power_state import PowerState

DEFAULT_DRIVER = 'tether.drivers.virt.libvirt.driver.LibvirtDriver'

# The trait of a host that rebuilds volume-backed servers (re-images their
# root volume). The name is the one of Nova's volume-backed rebuild spec;
# os-traits has no such constant, so it is spelled here.
COMPUTE_REBUILD_BFV = 'COMPUTE_REBUILD_BFV'


@dataclasses.dataclass(frozen=True)
class Instance:
    """What a driver needs to know to build a guest."""
    uuid: str
    name: str            # the hypervisor's name for it (domain name)
    memory_mb: int
    vcpus: int
    display_name: str = None
    # The files of its config drive ({path: bytes}, Nova's layout), or
    # None: no config drive.
    config_drive: dict = None


@dataclasses.dataclass(frozen=True)
class RootImage:
    """The image a guest's local root disk is made of (a server booted
    from an image, Nova's image backend).

    ``fetch(path)`` writes the image's data, checked against what the
    image API recorded of it, into the new file ``path`` and returns the
    disk format the image API says it is in (``disk_format``); the
    driver calls it only when the host has no copy of the image yet, and
    inspects what it wrote before any tool reads it. ``size_gb`` is the
    size of the root disk (the flavor's ``root_gb``); 0: the image's
    virtual size.
    """
    image_id: str
    size_gb: int
    fetch: typing.Callable[[str], str] = dataclasses.field(compare=False)


@dataclasses.dataclass(frozen=True)
class ShareMount:
    """A Manila share as this host mounts it (issue #14, Nova's 2.97).

    ``protocol`` is ``CEPHFS`` or ``NFS``; ``export`` is the path of the
    share's export location as Manila gives it: for CephFS
    ``mon1:port[,mon2:port]:/volumes/_nogroup/<...>`` (the monitors, then
    the share's path in the file system), for NFS ``host:/path``. A CephFS
    share is mounted as the cephx user ``access_to`` of its access rule
    with the key ``access_key`` Manila made for it. The key is a secret:
    it is never shown by ``repr``, written to a log or put in a message.
    """
    share_id: str
    protocol: str
    export: str
    access_to: str = None
    access_key: str = dataclasses.field(default=None, repr=False)


@dataclasses.dataclass(frozen=True)
class GuestShare:
    """A virtio-fs device of a guest: the host directory ``source_dir``
    (a mounted share, :meth:`ComputeDriver.mount_share`), which the
    guest mounts by its ``tag`` (``mount -t virtiofs TAG /mnt``)."""
    tag: str
    source_dir: str


@dataclasses.dataclass(frozen=True)
class InstanceInfo:
    uuid: str
    name: str
    state: PowerState
    # Whether the guest's memory is saved to its host (a suspended
    # guest: off, and it carries on from there at its next start).
    saved: bool = False


class ComputeDriver:
    """What the compute manager asks of a hypervisor.

    Volumes are given as the connection info the volume service returned
    for the attachment; a driver names the device it made of each one
    (``/dev/sdb``), which the manager records as the mount point.

    A server booted from an image has a local root disk, made of a
    :class:`RootImage` at spawn: the first disk (``/dev/sda``), first in
    the boot order, with the volumes after it. The driver keeps one copy
    of each image per host, shared by the root disks made of it, and
    removes the copies no guest uses (:meth:`manage_image_cache`).
    :meth:`destroy` removes the root disk with the guest.

    A rebuild of such a server onto another image is :meth:`destroy`,
    then :meth:`spawn` with the same instance, the connection infos of
    its volumes and a :class:`RootImage` of the new image: the new root
    disk is made of that image, at the size ``size_gb`` says, and the
    volumes get the devices they had (:meth:`boot_device_names`).

    Shares (Manila's, over virtio-fs) come in two steps: the host mounts
    each share once (:meth:`mount_share`, :meth:`umount_share`; the
    manager decides when no guest needs it any more), and a guest gets
    its shares as :class:`GuestShare` values each time it starts
    (:meth:`spawn`, :meth:`power_on`, :meth:`reboot`): the list given is
    the whole list, and a share left out is gone from the guest's
    definition. A guest with shares has shared memory (virtio-fs needs
    it).
    """

    # Capabilities, reported as traits (os-traits names) with get_traits().
    capabilities = {}

    def init_host(self):
        """Check the hypervisor is usable; raise if it is not."""

    def spawn(self, instance, block_devices, power_on=True, root_image=None,
              shares=()):
        """Create the guest of ``instance`` with the volumes of the
        connection infos ``block_devices`` and the virtio-fs devices of
        ``shares`` (:class:`GuestShare` values); return the device of
        each volume, in order.

        Without ``root_image`` the first volume is the root disk. With a
        :class:`RootImage`, the root disk is a new local disk made of that
        image (ImageUnsafe, ImageCorrupt ... if its data cannot be used;
        RootDiskTooSmall if it does not fit ``size_gb``), and the volumes
        come after it. Nothing of the guest is left when it raises.
        """
        raise NotImplementedError()

    def destroy(self, instance_uuid):
        """Remove the guest; return False if there was none."""
        raise NotImplementedError()

    def power_on(self, instance_uuid, shares=()):
        """Start the guest with exactly the virtio-fs devices of
        ``shares`` (:class:`GuestShare` values) in its definition; a guest
        that is running is left as it is."""
        raise NotImplementedError()

    def power_off(self, instance_uuid, timeout=0):
        """Power off; ask the guest OS first for up to ``timeout`` s (a
        guest without an OS takes all of it)."""
        raise NotImplementedError()

    def reboot(self, instance_uuid, shares=(), soft_timeout=None):
        """Power off and start again, with exactly the virtio-fs devices
        of ``shares`` (as :meth:`power_on`); a paused guest too, and a
        suspended one boots (its saved memory is dropped). With
        ``soft_timeout`` (a soft reboot), a running guest's OS is first
        asked to power off and given that many seconds (as
        :meth:`power_off`)."""
        raise NotImplementedError()

    def pause(self, instance_uuid):
        """Stop the running guest's vCPUs; its memory stays in its
        QEMU process."""
        raise NotImplementedError()

    def unpause(self, instance_uuid):
        """Run the paused guest's vCPUs again."""
        raise NotImplementedError()

    def suspend(self, instance_uuid):
        """Save the guest's memory to a file on the host and end its QEMU
        process (libvirt's managed save)."""
        raise NotImplementedError()

    def resume(self, instance_uuid):
        """Start the suspended guest from its saved memory."""
        raise NotImplementedError()

    def rescue(self, instance, rescue_image):
        """Make the guest of ``instance`` (an :class:`Instance`) again
        with a rescue disk made of ``rescue_image`` (a :class:`RootImage`)
        first in its boot order, its own disks after it under their own
        names, and start it; its own definition is kept for
        :meth:`unrescue`."""
        raise NotImplementedError()

    def unrescue(self, instance_uuid):
        """Make the rescued guest again as it was before its rescue
        (its rescue disk removed) and start it."""
        raise NotImplementedError()

    def is_rescued(self, instance_uuid):
        """Whether the guest is made of a rescue (its own definition
        kept for :meth:`unrescue`)."""
        return False

    def boot_device_names(self, count):
        """The devices spawn() gives its first ``count`` disks: the local
        root disk (with a ``root_image``), then the volumes."""
        raise NotImplementedError()

    def next_device_name(self, instance_uuid):
        """The device a volume attached now would get (the caller
        serializes the device changes of one guest)."""
        raise NotImplementedError()

    def attach_volume(self, instance_uuid, connection_info, device=None):
        """Attach a volume as ``device`` (the next free one if None);
        return its device (``/dev/sdX``)."""
        raise NotImplementedError()

    def detach_volume(self, instance_uuid, connection_info):
        raise NotImplementedError()

    def extend_volume(self, instance_uuid, connection_info, new_size_bytes):
        """Make a running guest see its volume at ``new_size_bytes``.

        Return False (and change nothing) when the guest is not running.
        """
        raise NotImplementedError()

    def snapshot(self, instance_uuid, directory):
        """A context manager: the guest's local root disk as it is now,
        a new standalone qcow2 file in ``directory`` (its path), which is
        removed when the block ends. A running guest is paused while its
        disk is copied (its writes are on the file then), and runs again
        after."""
        raise NotImplementedError()

    def volume_snapshot_create(self, instance_uuid, volume_id, new_file):
        """Have the guest's disk of the volume write to ``new_file``, a
        qcow2 overlay the volume service made on the disk's file now, in
        the same directory (an assisted volume snapshot). Return False
        if it does already, True if it was switched."""
        raise NotImplementedError()

    def volume_snapshot_delete(self, instance_uuid, volume_id, file_to_merge,
                               merge_target_file):
        """Merge ``file_to_merge`` into ``merge_target_file`` (the file
        below it in the volume's chain), or, with ``merge_target_file``
        None, pull the files above ``file_to_merge`` (None: all) into the
        file written; the file written stays the same. Return False if
        that was done already."""
        raise NotImplementedError()

    def mount_share(self, share):
        """Mount the :class:`ShareMount` ``share`` on this host, unless it
        is mounted already; return the directory it is mounted on
        (:meth:`share_mount_path`).

        InvalidShareExport if the export, the protocol or the cephx
        identity cannot be used; ShareMountFailed if the mount fails.
        """
        raise NotImplementedError()

    def umount_share(self, share_id):
        """Unmount the share ``share_id`` and forget its credentials;
        return False if it was not mounted. ShareUnmountFailed, and the
        share stays mounted, while a running guest has it or the host
        cannot let it go (the caller serializes this with the starts of
        the guests that have the share)."""
        raise NotImplementedError()

    def share_mount_path(self, share_id):
        """The directory the share ``share_id`` is (or would be) mounted
        on."""
        raise NotImplementedError()

    def get_console_output(self, instance_uuid):
        """The last bytes the guest wrote to its console (at most 100 KiB,
        oldest first; ``b''`` before it wrote any), running or not.

        InstanceNotFound if there is no guest; ConsoleNotAvailable if it
        has no console that is logged.
        """
        raise NotImplementedError()

    def get_info(self, instance_uuid):
        """An :class:`InstanceInfo`; InstanceNotFound if there is none."""
        raise NotImplementedError()

    def list_instances(self):
        """:class:`InstanceInfo` of every guest on this host."""
        raise NotImplementedError()

    def manage_image_cache(self, images_in_use, remove_unused=True,
                           min_age_seconds=0):
        """Look after the host's copies of images: those of
        ``images_in_use`` (image IDs: the servers of this host) and those
        a root disk on the host is made of are marked used now; with
        ``remove_unused``, every other copy that no one has used for
        ``min_age_seconds`` is removed. Returns the IDs of the images
        removed."""
        raise NotImplementedError()

    def get_host_stats(self):
        raise NotImplementedError()

    def get_traits(self):
        """Capability traits of this host (a set of os-traits names)."""
        raise NotImplementedError()

    def get_volume_connector(self):
        """What the volume service needs to know of this host to export
        a volume to it (the attachment's connector)."""
        raise NotImplementedError()


def load_driver(path=DEFAULT_DRIVER, *args, **kwargs):
    return importutils.import_object(path, *args, **kwargs)
