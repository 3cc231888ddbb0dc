"""The libvirt compute driver: QEMU guests whose disks are volumes, a
local root disk made of an image for a server booted from one, and Manila
shares mounted on the host and given to guests over virtio-fs."""

import dataclasses
import os
import platform
import shutil
import socket

import os_traits
from oslo_concurrency import lockutils
from oslo_log import log as logging
from oslo_utils import excutils

from tether.compute import exception
from tether.drivers.virt import driver
from tether.drivers.virt.libvirt import config
from tether.drivers.virt.libvirt import configdrive
from tether.drivers.virt.libvirt import console
from tether.drivers.virt.libvirt import driver_power
from tether.drivers.virt.libvirt import driver_rescue
from tether.drivers.virt.libvirt import driver_shares
from tether.drivers.virt.libvirt import driver_snapshot
from tether.drivers.virt.libvirt import driver_volume_snapshots
from tether.drivers.virt.libvirt import host as libvirt_host
from tether.drivers.virt.libvirt import imagebackend
from tether.drivers.virt.libvirt import parse
from tether.drivers.virt.libvirt import volume
from tether.drivers.virt.power_state import PowerState
from tether import file_access

LOG = logging.getLogger(__name__)

# What Nova's libvirt driver requires in its 2025 releases.
MIN_LIBVIRT_VERSION = (8, 0, 0)
MIN_QEMU_VERSION = (6, 2, 0)

_CAPABILITY_TRAITS = {
    'supports_extend_volume': os_traits.COMPUTE_VOLUME_EXTEND,
    'supports_multiattach': os_traits.COMPUTE_VOLUME_MULTI_ATTACH,
    'supports_rebuild_bfv': driver.COMPUTE_REBUILD_BFV,
    'supports_bfv_rescue': os_traits.COMPUTE_RESCUE_BFV,
}


def _device(target):
    return '/dev/' + target


def _target(device):
    """``sdb`` of ``/dev/sdb`` (or of ``sdb``)."""
    return device.rsplit('/', 1)[-1]


class LibvirtDriver(driver_power.PowerMixin, driver_rescue.RescueMixin,
                    driver_shares.SharesMixin, driver_snapshot.SnapshotMixin,
                    driver_volume_snapshots.VolumeSnapshotsMixin,
                    driver.ComputeDriver):
    """Guests on the libvirt at ``[libvirt]connection_uri``.

    ``configuration`` is the ``[libvirt]`` option group (or any object with
    its attributes); ``host_name`` is this compute host's name;
    ``instances_path`` the directory that holds a directory per guest, for
    its console log and its local root disk (``[DEFAULT] instances_path``;
    None: guests get no logged console and cannot boot from images), and
    the cache of images in ``image_cache_subdirectory`` (``[image_cache]
    subdirectory_name``). Its share methods are SharesMixin's
    (driver_shares.py), its power methods PowerMixin's (driver_power.py),
    its rescue methods RescueMixin's (driver_rescue.py), its assisted
    volume snapshots VolumeSnapshotsMixin's (driver_volume_snapshots.py),
    the snapshot of a root disk SnapshotMixin's (driver_snapshot.py).
    """

    capabilities = {
        'supports_extend_volume': True,
        'supports_multiattach': False,
        'supports_rebuild_bfv': True,
        'supports_bfv_rescue': True,
    }

    def __init__(self, configuration, host_name=None, instances_path=None,
                 image_cache_subdirectory='_base'):
        self.conf = configuration
        self.host_name = host_name or socket.gethostname()
        self.instances_path = instances_path
        self.host = libvirt_host.Host(configuration.connection_uri)
        self.image_cache = (
            imagebackend.ImageCache(instances_path, image_cache_subdirectory)
            if instances_path else None)

    @staticmethod
    def _lock(instance_uuid):
        # Device changes of one guest pick a free name, then attach: one at
        # a time per guest in this process.
        return lockutils.lock('tether-guest-' + instance_uuid)

    def init_host(self):
        lib, hv = self.host.versions()
        if lib < MIN_LIBVIRT_VERSION or hv < MIN_QEMU_VERSION:
            raise exception.VirtError(
                reason='libvirt %s with QEMU %s is too old: tether needs '
                       'libvirt %s and QEMU %s or newer'
                       % ('.'.join(map(str, lib)), '.'.join(map(str, hv)),
                          '.'.join(map(str, MIN_LIBVIRT_VERSION)),
                          '.'.join(map(str, MIN_QEMU_VERSION))))
        if self.instances_path:
            os.makedirs(self.instances_path, mode=0o755, exist_ok=True)
            if not file_access.reachable_by_others(self.instances_path):
                LOG.warning('QEMU (libvirt-qemu) cannot reach the root disks '
                            'under %s: a directory above it is closed to '
                            'others. Servers booted from images will not '
                            'start.', self.instances_path)

    # Guests ----------------------------------------------------------------

    def _connect_volume(self, connection_info):
        path = volume.connect(connection_info,
                              self.conf.nfs_mount_point_base,
                              self.conf.nfs_mount_options)
        if not os.path.isfile(path):
            raise exception.VolumeFileNotFound(
                path=path, volume_id=volume.volume_id(connection_info))
        return path

    # The instance's directory on this host: its console log.

    def _instance_dir(self, instance_uuid):
        if not self.instances_path:
            return None
        return os.path.join(self.instances_path, instance_uuid)

    def _make_instance_dir(self, instance_uuid):
        """The console log's path in a new (or existing) directory of the
        instance; None without ``instances_path``."""
        path = self._instance_dir(instance_uuid)
        if path is None:
            return None
        # virtlogd (root) writes the log; the directory is the instance's,
        # like Nova's, readable by others as the instances path is.
        os.makedirs(path, mode=0o755, exist_ok=True)
        return console.log_path(self.instances_path, instance_uuid)

    def _remove_instance_dir(self, instance_uuid):
        path = self._instance_dir(instance_uuid)
        if path is None or not os.path.isdir(path):
            return

        def failed(_function, failed_path, exc_info):
            LOG.warning('Could not remove %s of instance %s: %s',
                        failed_path, instance_uuid, exc_info[1])
        shutil.rmtree(path, onerror=failed)

    def _domain_xml(self, instance, disks, console_log, shares=()):
        qemu = self.conf.virt_type == 'qemu'
        return config.to_xml(config.domain(
            name=instance.name, uuid=instance.uuid,
            memory_mib=instance.memory_mb, vcpus=instance.vcpus,
            disks=disks, filesystems=self._filesystems(shares),
            virt_type=self.conf.virt_type,
            cpu_model='qemu64' if qemu else None,
            memory_backing=self._memory_backing(bool(shares)),
            title=instance.display_name, console_log=console_log))

    def _root_disk(self, instance_uuid, root_image):
        """The local root disk of a guest, made of ``root_image`` (a
        RootImage) in the guest's directory."""
        path = os.path.join(self._instance_dir(instance_uuid),
                            imagebackend.DISK_NAME)
        size = self.image_cache.create_disk(path, root_image)
        LOG.info('Made the root disk of %s (%d bytes) of image %s',
                 instance_uuid, size, root_image.image_id)
        return config.Disk(path=path, fmt='qcow2',
                           target=config.disk_name(0))

    def _config_drive(self, instance, index):
        """The guest's config drive, made of its files in its directory:
        a read-only disk after its boot disks."""
        if self.instances_path is None:
            raise exception.VirtError(
                reason='a config drive needs [DEFAULT] instances_path')
        path = configdrive.make(
            os.path.join(self._instance_dir(instance.uuid), configdrive.NAME),
            instance.config_drive)
        return config.Disk(path=path, fmt='raw',
                           target=config.disk_name(index), readonly=True)

    def spawn(self, instance, block_devices, power_on=True, root_image=None,
              shares=()):
        if root_image is not None and self.image_cache is None:
            raise exception.VirtError(
                reason='a root disk made of an image needs [DEFAULT] '
                       'instances_path')
        # With a local root disk, the volumes come after it.
        first = 0 if root_image is None else 1
        disks = []
        for index, connection_info in enumerate(block_devices):
            path = self._connect_volume(connection_info)
            disks.append(volume.disk_spec(connection_info, path,
                                          config.disk_name(first + index)))
        with self._lock(instance.uuid):
            try:
                self.host.lookup(instance.uuid)
            except exception.InstanceNotFound:
                pass
            else:
                raise exception.InstanceExists(instance_id=instance.uuid)
            console_log = self._make_instance_dir(instance.uuid)
            try:
                if root_image is not None:
                    disks.insert(0, self._root_disk(instance.uuid,
                                                    root_image))
                if disks:
                    # The guest boots from its root disk, whatever the
                    # other disks hold.
                    disks[0] = dataclasses.replace(disks[0], boot_order=1)
                volumes = [_device(d.target) for d in disks[first:]]
                if instance.config_drive is not None:
                    disks.append(self._config_drive(instance, len(disks)))
                xml = self._domain_xml(instance, disks, console_log,
                                       shares)
                guest = self.host.define(xml, instance.uuid)
                LOG.debug('Defined %s (%s)', instance.name, instance.uuid)
            except Exception:
                # Nothing is left of a guest that was never defined: its
                # directory (and root disk) go.
                with excutils.save_and_reraise_exception():
                    self._remove_instance_dir(instance.uuid)
            if power_on:
                try:
                    guest.start()
                except exception.TetherException:
                    # Leave nothing behind of a guest that never ran.
                    with excutils.save_and_reraise_exception():
                        LOG.warning('%r did not start; removing it', guest)
                        guest.delete()
                        self._remove_instance_dir(instance.uuid)
        LOG.info('Spawned %s (%s) with %d disks', instance.name,
                 instance.uuid, len(disks))
        return volumes

    def destroy(self, instance_uuid):
        with self._lock(instance_uuid):
            try:
                guest = self.host.lookup(instance_uuid)
            except exception.InstanceNotFound:
                self._remove_instance_dir(instance_uuid)
                return False
            guest.delete()
            self._remove_instance_dir(instance_uuid)
        return True

    def get_info(self, instance_uuid):
        guest = self.host.lookup(instance_uuid)
        state = guest.power_state()
        return driver.InstanceInfo(
            uuid=guest.uuid, name=guest.name, state=state,
            saved=(state == PowerState.SHUTDOWN and
                   guest.has_saved_memory()))

    def get_console_output(self, instance_uuid):
        guest = self.host.lookup(instance_uuid)
        path = parse.console_log(guest.xml())
        if path is None or not console.is_log_of(path, instance_uuid):
            # A guest defined before tether logged consoles (or whose
            # definition was changed by hand).
            raise exception.ConsoleNotAvailable(instance_id=instance_uuid)
        return console.tail(path)

    def list_instances(self):
        infos = []
        for guest in self.host.list_guests():
            try:
                infos.append(driver.InstanceInfo(
                    uuid=guest.uuid, name=guest.name,
                    state=guest.power_state()))
            except exception.InstanceNotFound:
                pass   # removed since it was listed
        return infos

    # Volumes ---------------------------------------------------------------

    @staticmethod
    def _find_disk(guest, connection_info, path):
        serial = volume.volume_id(connection_info)
        if guest.is_active():
            found = parse.find_disk(guest.xml(), path=path, serial=serial)
            if found:
                return found
        return parse.find_disk(guest.xml(inactive=True), path=path,
                               serial=serial)

    def boot_device_names(self, count):
        return [_device(config.disk_name(index)) for index in range(count)]

    def next_device_name(self, instance_uuid):
        used = self.host.lookup(instance_uuid).used_disk_targets()
        try:
            return _device(config.next_free_disk(used))
        except ValueError:
            raise exception.NoFreeDeviceName(instance_id=instance_uuid,
                                             count=len(used))

    def attach_volume(self, instance_uuid, connection_info, device=None):
        path = self._connect_volume(connection_info)
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            attached = self._find_disk(guest, connection_info, path)
            if attached:
                raise exception.VolumeAlreadyAttached(
                    volume_id=volume.volume_id(connection_info),
                    instance_id=instance_uuid,
                    device=_device(attached.target))
            used = guest.used_disk_targets()
            if device is None:
                target = _target(self.next_device_name(instance_uuid))
            elif _target(device) in used:
                raise exception.DeviceInUse(device=device,
                                            instance_id=instance_uuid)
            else:
                target = _target(device)
            spec = volume.disk_spec(connection_info, path, target)
            guest.attach_device(config.to_xml(config.disk(spec)))
        LOG.info('Attached %s to %r as %s', path, guest, target)
        return _device(target)

    def detach_volume(self, instance_uuid, connection_info):
        path = volume.disk_path(connection_info,
                                self.conf.nfs_mount_point_base)
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            found = self._find_disk(guest, connection_info, path)
            if found is None:
                raise exception.VolumeAttachmentNotFound(
                    volume_id=volume.volume_id(connection_info),
                    instance_id=instance_uuid)
            spec = config.Disk(path=found.source, fmt=found.fmt,
                               target=found.target, serial=found.serial,
                               readonly=found.readonly)
            guest.detach_disk(config.to_xml(config.disk(spec)), found.target)
        LOG.info('Detached %s (%s) from %r', path, found.target, guest)

    def extend_volume(self, instance_uuid, connection_info, new_size_bytes):
        path = volume.disk_path(connection_info,
                                self.conf.nfs_mount_point_base)
        guest = self.host.lookup(instance_uuid)
        if guest.power_state() not in (PowerState.RUNNING,
                                       PowerState.PAUSED):
            LOG.info('%r is not running; not resizing %s', guest, path)
            return False
        found = parse.find_disk(guest.xml(), path=path,
                                serial=volume.volume_id(connection_info))
        if found is None:
            raise exception.VolumeAttachmentNotFound(
                volume_id=volume.volume_id(connection_info),
                instance_id=instance_uuid)
        try:
            guest.block_resize(found.target, new_size_bytes,
                               file_size=volume.raw_file_size(found))
        except exception.VirtError:
            if not guest.is_active():
                LOG.info('%r stopped during the resize of %s', guest, path)
                return False
            raise
        LOG.info('Resized %s (%s) of %r to %d bytes', path, found.target,
                 guest, new_size_bytes)
        return True

    # Images ------------------------------------------------------------------

    def manage_image_cache(self, images_in_use, remove_unused=True,
                           min_age_seconds=0):
        if self.image_cache is None:
            return []
        return self.image_cache.manage(images_in_use, remove_unused,
                                       min_age_seconds)

    # The host --------------------------------------------------------------

    def get_host_stats(self):
        return self.host.stats()

    def get_traits(self):
        traits = self.host.traits(self.conf.file_backed_memory)
        traits |= {trait for cap, trait in _CAPABILITY_TRAITS.items()
                   if self.capabilities.get(cap)}
        return traits

    def get_volume_connector(self):
        return {'host': self.host_name, 'platform': platform.machine(),
                'os_type': 'linux', 'multipath': False}
