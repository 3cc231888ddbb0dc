"""How tether-backup reaches a volume's data (what os-brick does for
Cinder's backup service): the volume service says where the data is (a
file on a share: the share, the file's name and format), this mounts the
share and opens the file as raw data.

A raw file is read and written where it is. A qcow2 file (the chain of a
volume with snapshots, or of one of its snapshots) is converted by
qemu-img to a raw file in ``[backup] work_dir`` to be read, and a raw
file there is converted into it after a restore wrote it.
"""

import contextlib
import hashlib
import os
import tempfile

from oslo_concurrency import processutils
from oslo_log import log as logging

from tether.drivers import qemu_img
from tether.volume import backup_exception as exception

LOG = logging.getLogger(__name__)


class Connector:

    def __init__(self, mount_point_base, work_dir):
        self.mount_point_base = mount_point_base
        self.work_dir = work_dir

    # Shares ----------------------------------------------------------------

    def _mount_point(self, data):
        export = data['export']
        if export.startswith('/'):
            # A local directory used as an already-mounted share.
            return export
        digest = hashlib.sha256(export.encode()).hexdigest()[:32]
        mount_point = os.path.join(self.mount_point_base, digest)
        if not os.path.ismount(mount_point):
            os.makedirs(mount_point, exist_ok=True)
            cmd = ['mount', '-t', 'nfs']
            if data.get('options'):
                cmd += ['-o', data['options']]
            try:
                processutils.execute(*(cmd + [export, mount_point]))
            except processutils.ProcessExecutionError as exc:
                raise exception.BackupDriverError(
                    reason='mount of %s failed: %s'
                           % (export, (exc.stderr or str(exc)).strip()))
        return mount_point

    def path_of(self, device):
        """(path, format) of the file a device (the volume service's
        description) names."""
        data = device['data']
        name = data['name']
        if '/' in name or name in ('', '.', '..'):
            raise exception.BackupDriverError(
                reason='the volume service named file %r' % name)
        return os.path.join(self._mount_point(data), name), data['format']

    def _temporary(self, what):
        os.makedirs(self.work_dir, exist_ok=True)
        fd, path = tempfile.mkstemp(prefix='%s-' % what, dir=self.work_dir)
        os.close(fd)
        return path

    # Data ------------------------------------------------------------------

    @contextlib.contextmanager
    def reader(self, device, what):
        """A file object of the device's raw data (``what``: a name for
        the temporary file)."""
        path, fmt = self.path_of(device)
        if fmt == 'raw':
            with open(path, 'rb') as f:
                yield f
            return
        tmp = self._temporary(what)
        try:
            # A snapshot's chain, or a detached volume's: nothing writes
            # it, though a guest may hold the files above it.
            qemu_img.export(path, fmt, tmp, 'raw', force_share=True)
            with open(tmp, 'rb') as f:
                yield f
        finally:
            _unlink(tmp)

    @contextlib.contextmanager
    def writer(self, device, size_bytes, what):
        """A file object (raw, read and write) whose data ends in the
        device's file once the block ends without an error."""
        path, fmt = self.path_of(device)
        if fmt == 'raw':
            with open(path, 'r+b') as f:
                yield f
                f.flush()
                os.fsync(f.fileno())
            return
        tmp = self._temporary(what)
        try:
            with open(tmp, 'r+b') as f:
                f.truncate(size_bytes)
                yield f
                f.flush()
            # Into the existing file (-n): qemu-img writes the runs of
            # zeros as zeros (qcow2 zero clusters), so none of the
            # volume's old data is left where the backup has none.
            qemu_img.convert(tmp, 'raw', path, fmt)
        finally:
            _unlink(tmp)


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
