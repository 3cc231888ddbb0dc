"""Volumes as image files on file shares (the remotefs family)."""

import hashlib
import os

from oslo_concurrency import processutils
from oslo_log import log as logging

from tether.drivers import file_copy
from tether.drivers import qemu_img
from tether.drivers.volume import driver
from tether.drivers.volume import remotefs_assisted
from tether.drivers.volume import remotefs_snapshots
from tether.volume import exception

LOG = logging.getLogger(__name__)
GiB = driver.GiB
# What a chunk of zeros of an image is compared with (chunks are at most
# 1 MiB; a longer one is written as it is).
_ZEROS = bytes(1024 * 1024)


class RemoteFSDriver(remotefs_snapshots.SnapshotMixin,
                     remotefs_assisted.AssistedSnapshotMixin,
                     driver.VolumeDriver):
    """Volume files ``volume-<id>`` on mounted shares, made with qemu-img.

    A share is either a remote export, mounted by :meth:`_mount`, or an
    absolute local path used as an already-mounted share. Once a volume
    has snapshots, its data is the chain of files that ends in its active
    file (remotefs_snapshots).
    """

    driver_volume_type = None
    volume_backend_name = 'remotefs'

    def __init__(self, configuration, host):
        super().__init__(configuration, host)
        self.shares = {}   # share -> mount point
        self.limits = processutils.ProcessLimits(
            cpu_time=configuration.qemu_img_cpu_limit,
            address_space=configuration.qemu_img_address_space_limit)

    # Shares ---------------------------------------------------------------

    @staticmethod
    def is_local_share(share):
        return share.startswith('/')

    def mount_point_for(self, share):
        if self.is_local_share(share):
            return share
        digest = hashlib.sha256(share.encode()).hexdigest()[:32]
        return os.path.join(self.configuration.nfs_mount_point_base, digest)

    def _mount(self, share, mount_point):
        raise NotImplementedError()

    def do_setup(self):
        if not self.configuration.nfs_shares:
            raise exception.RemoteFSNoSharesMounted(
                reason='no shares are configured (nfs_shares)')
        errors = []
        for share in self.configuration.nfs_shares:
            mount_point = self.mount_point_for(share)
            try:
                if self.is_local_share(share):
                    os.makedirs(mount_point, exist_ok=True)
                elif not os.path.ismount(mount_point):
                    os.makedirs(mount_point, exist_ok=True)
                    self._mount(share, mount_point)
                self.shares[share] = mount_point
            except (OSError, exception.TetherException) as exc:
                LOG.error('Share %s could not be mounted: %s', share, exc)
                errors.append('%s: %s' % (share, exc))
        if not self.shares:
            raise exception.RemoteFSNoSharesMounted(reason='; '.join(errors))
        self.initialized = True

    def _capacity(self, mount_point):
        st = os.statvfs(mount_point)
        total = st.f_blocks * st.f_frsize
        free = st.f_bavail * st.f_frsize
        return total, free

    def _choose_share(self, size_gb):
        best = None
        for share, mount_point in self.shares.items():
            total, free = self._capacity(mount_point)
            room = free * self.configuration.max_over_subscription_ratio \
                - total * self.configuration.reserved_percentage / 100.0
            if room >= size_gb * GiB and (best is None or room > best[0]):
                best = (room, share)
        if best is None:
            raise exception.RemoteFSNoSuitableShare(size=size_gb)
        return best[1]

    # Volumes --------------------------------------------------------------

    def volume_dir(self, volume):
        share = volume.provider_location
        if share not in self.shares:
            raise exception.VolumeBackendAPIException(
                data='volume %s is on share %s, which this backend does not '
                     'serve' % (volume.id, share))
        return self.shares[share]

    def local_path(self, volume):
        """The volume's active file: its base file, or the newest
        overlay once it has snapshots."""
        return os.path.join(self.volume_dir(volume),
                            self.active_file(volume))

    def base_format(self, volume):
        """The format the volume's base file was made in."""
        return volume.admin_metadata.get('format',
                                         self.configuration.volume_format)

    def volume_format(self, volume):
        """The active file's format: qcow2 once there is a snapshot."""
        return self._file_format(volume, self.active_file(volume))

    def create_volume(self, volume):
        # The scheduler named a pool (a share) in host@backend#pool.
        pool = volume.host.partition('#')[2] if volume.host else ''
        share = volume.provider_location or (
            pool if pool in self.shares else self._choose_share(volume.size))
        path = os.path.join(self.shares[share], volume.name_on_disk)
        fmt = self.configuration.volume_format
        size = volume.size * GiB
        if os.path.exists(path):
            # A create that was interrupted after qemu-img ran: keep the
            # file if it is whole, make it again otherwise.
            try:
                if qemu_img.info(path, fmt, limits=self.limits).virtual_size \
                        == size:
                    return self._model_update(share, fmt)
            except exception.ProcessFailed:
                pass
            os.unlink(path)
        qemu_img.create(path, fmt, size,
                        preallocation=self._preallocation(fmt),
                        limits=self.limits)
        return self._model_update(share, fmt)

    def _preallocation(self, fmt):
        if fmt == 'raw' and not self.configuration.nfs_sparsed_volumes:
            return 'falloc'
        return None

    @staticmethod
    def _model_update(share, fmt):
        return {'provider_location': share, 'admin_metadata': {'format': fmt}}

    def delete_volume(self, volume):
        if volume.provider_location:
            directories = [self.volume_dir(volume)]
        else:
            # A create interrupted before it recorded its share may have
            # left its file: the name is the volume's own on every share.
            directories = list(self.shares.values())
        with self.volume_lock(volume):
            for directory in directories:
                # The base, every snapshot's overlay, the info file last.
                for path in self.volume_files(directory, volume):
                    try:
                        os.unlink(path)
                    except FileNotFoundError:
                        LOG.info('Volume file %s was already gone', path)

    def extend_volume(self, volume, new_size):
        with self.volume_lock(volume):
            self._extend_volume(volume, new_size)

    def _extend_volume(self, volume, new_size):
        # With snapshots, the active overlay grows; its backing files
        # keep their size (past their end, it reads zeros).
        path = self.local_path(volume)
        fmt = self.volume_format(volume)
        # From the header: qemu-img info would cost a process, and this runs
        # on the path of every online extend.
        current = qemu_img.virtual_size(path, fmt)
        if new_size * GiB < current:
            raise exception.ExtendFailed(
                volume_id=volume.id,
                reason='shrinking from %s to %s bytes is refused'
                       % (current, new_size * GiB))
        try:
            qemu_img.resize(path, fmt, new_size * GiB, limits=self.limits)
        except exception.ImageLocked:
            # A running guest's QEMU holds the write lock: only it can grow
            # the file (block_resize), so the hypervisor must do it.
            raise exception.ExtendNeedsHypervisor(volume_id=volume.id)

    def copy_image_to_volume(self, volume, image_path, image_format,
                             sparse=True):
        self._refuse_if_snapshots(volume)
        path = self.local_path(volume)
        fmt = self.volume_format(volume)
        if not sparse:
            # qemu-img convert -n writes the image's extent only: past a
            # smaller image, the volume's old data would be left. The file
            # is made again in place first (qemu-img create truncates it:
            # same file, same size and format, nothing of its data).
            qemu_img.create(path, fmt, qemu_img.virtual_size(path, fmt),
                            preallocation=self._preallocation(fmt),
                            limits=self.limits)
        if image_format == 'raw' and fmt == 'raw' and not sparse:
            # The bytes are the disk, zeros and all: the kernel copies
            # them.
            file_copy.copy_into(image_path, path)
        else:
            qemu_img.convert(image_path, image_format, path, fmt,
                             sparse=sparse)

    def can_write_raw_image(self, volume):
        return self.volume_format(volume) == 'raw'

    def write_raw_image(self, volume, chunks, sparse=True):
        self._refuse_if_snapshots(volume)
        path = self.local_path(volume)
        if not sparse:
            # Made again in place first, as for copy_image_to_volume.
            qemu_img.create(path, 'raw', os.stat(path).st_size,
                            preallocation=self._preallocation('raw'),
                            limits=self.limits)
        with open(path, 'r+b') as f:
            for chunk in chunks:
                if sparse and chunk == _ZEROS[:len(chunk)]:
                    # A hole stays a hole (the file reads zeros there).
                    f.seek(len(chunk), os.SEEK_CUR)
                else:
                    f.write(chunk)

    def create_volume_from_snapshot(self, volume, snapshot, source):
        """Write what ``source`` (the snapshot's volume) held when
        ``snapshot`` was taken into the new volume (made already, at its
        size): the chain below the snapshot's overlay, which nothing
        writes again, read whole by qemu-img."""
        with self.volume_lock(source):
            path, fmt = self.snapshot_data(source, snapshot)
            self._copy_into(volume, path, fmt)

    def create_cloned_volume(self, volume, source):
        """Write the data of the volume ``source`` (detached: its QEMU
        would hold the write lock, and qemu-img fails on it) into the new
        volume (made already, at its size)."""
        with self.volume_lock(source):
            self._copy_into(volume, self.local_path(source),
                            self.volume_format(source))

    def _copy_into(self, volume, source_path, source_format):
        # The limits of a conversion (a whole volume is read), not the
        # backend's for its quick qemu-img calls.
        qemu_img.convert(source_path, source_format,
                         self.local_path(volume), self.volume_format(volume))

    def copy_volume_to_image(self, volume, image_path, image_format,
                             force_share=False):
        # From the active file, qemu-img reads the whole chain.
        qemu_img.export(self.local_path(volume), self.volume_format(volume),
                        image_path, image_format, force_share=force_share)

    def get_volume_size(self, volume):
        return qemu_img.info(self.local_path(volume),
                             self.volume_format(volume), force_share=True,
                             limits=self.limits).virtual_size

    # Connections ----------------------------------------------------------

    def initialize_connection(self, volume, connector):
        """The share and the file name: the consumer mounts the share.

        Nothing changes on the backend: every volume file of a share is
        reachable by whoever mounts it. A local-directory share is reported
        as that directory (an already-mounted share on the consumer too).
        """
        path = self.local_path(volume)
        if not os.path.exists(path):
            raise exception.VolumeBackendAPIException(
                data='the file of volume %s is missing from its share'
                     % volume.id)
        return {
            'driver_volume_type': self.driver_volume_type,
            'data': {
                # The active file: QEMU opens the chain below it from
                # the names and formats in its header.
                'export': volume.provider_location,
                'name': os.path.basename(path),
                'format': self.volume_format(volume),
                'options': getattr(self.configuration, 'nfs_mount_options',
                                   None) or None,
                'access_mode': connector.get('mode') or 'rw',
                'volume_id': volume.id,
            },
        }

    def backup_device(self, volume, snapshot=None):
        """The share and the file a backup service reads (the volume's
        active file, or the file below a snapshot's overlay: qemu-img
        reads the chain beneath) or writes a restore into (the active
        file)."""
        with self.volume_lock(volume):
            if snapshot is not None:
                path, fmt = self.snapshot_data(volume, snapshot)
            else:
                path, fmt = self.local_path(volume), \
                    self.volume_format(volume)
        if not os.path.exists(path):
            raise exception.VolumeBackendAPIException(
                data='the file of volume %s is missing from its share'
                     % volume.id)
        return {
            'driver_volume_type': self.driver_volume_type,
            'data': {
                'export': volume.provider_location,
                'name': os.path.basename(path),
                'format': fmt,
                'options': getattr(self.configuration, 'nfs_mount_options',
                                   None) or None,
                'volume_id': volume.id,
            },
        }

    def terminate_connection(self, volume, connector):
        """Nothing to undo on the backend (see initialize_connection)."""

    def get_volume_stats(self):
        pools = []
        for share, mount_point in self.shares.items():
            total, free = self._capacity(mount_point)
            pools.append({
                'pool_name': share,
                'total_capacity_gb': round(total / GiB, 2),
                'free_capacity_gb': round(free / GiB, 2),
                'reserved_percentage': self.configuration.reserved_percentage,
                'max_over_subscription_ratio':
                    self.configuration.max_over_subscription_ratio,
                'thin_provisioning_support': True,
                'provisioned_capacity_gb': 0,
            })
        return {
            'volume_backend_name': (self.configuration.volume_backend_name
                                    or self.volume_backend_name),
            'vendor_name': 'tether',
            'driver_version': '1.0',
            'storage_protocol': self.driver_volume_type,
            # Volumes of a multiattach type (its extra spec
            # "multiattach": "<is> True" is matched against this).
            'multiattach': True,
            'pools': pools,
        }
