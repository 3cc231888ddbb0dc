"""The NFS driver: remotefs over exports mounted with ``mount -t nfs``."""

from oslo_concurrency import processutils

from tether.drivers.volume import remotefs
from tether.volume import exception


class NfsDriver(remotefs.RemoteFSDriver):
    driver_volume_type = 'nfs'
    volume_backend_name = 'nfs'

    def _mount(self, share, mount_point):
        cmd = ['mount', '-t', 'nfs']
        if self.configuration.nfs_mount_options:
            cmd += ['-o', self.configuration.nfs_mount_options]
        cmd += [share, mount_point]
        try:
            processutils.execute(*cmd)
        except processutils.ProcessExecutionError as exc:
            raise exception.RemoteFSNoSharesMounted(
                reason='mount of %s failed: %s'
                       % (share, (exc.stderr or str(exc)).strip()))
