"""The posix backup driver: backups as files in directories under
``[backup] posix_path`` (in a deployment an NFS export or a CephFS that
every tether-backup mounts there), as Cinder's posix driver keeps them.

A backup's container is a directory relative to posix_path: the one its
create named, ``[backup] container``, or a directory of its own,
``<id[0:2]>/<id[2:4]>/<id>``. Each of its objects is a file, written
whole and synced before the next (the metadata file, written last, is
renamed into place).
"""

import os
import stat

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import timeutils

from tether.drivers.volume.backup import chunked
from tether.volume import backup_exception as exception

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
_DIR_MODE = stat.S_IRWXU | stat.S_IRWXG
_FILE_MODE = stat.S_IRUSR | stat.S_IWUSR | stat.S_IRGRP | stat.S_IWGRP


def default_container(backup_id):
    return os.path.join(backup_id[0:2], backup_id[2:4], backup_id)


class PosixBackupDriver(chunked.ChunkedBackupDriver):

    service_name = 'cinder.backup.drivers.posix.PosixBackupDriver'

    def __init__(self, conf=None):
        conf = conf or CONF.backup
        super().__init__(conf.file_size, conf.sha_block_size,
                         conf.compression_algorithm)
        self.root = os.path.abspath(conf.posix_path)
        self.container = conf.container

    def check_for_setup_error(self):
        try:
            os.makedirs(self.root, exist_ok=True)
        except OSError as exc:
            raise exception.BackupDriverError(
                reason='[backup] posix_path %s cannot be made: %s'
                       % (self.root, exc))
        if not os.access(self.root, os.W_OK | os.X_OK):
            LOG.warning('[backup] posix_path %s is not writable: backups '
                        'will fail until it is', self.root)

    def _path(self, container, name=None):
        """The directory of ``container`` (or its object ``name``), which
        must be below the root."""
        path = os.path.normpath(os.path.join(self.root, container,
                                             *([name] if name else [])))
        if os.path.isabs(container) or \
                os.path.commonpath([self.root, path]) != self.root or \
                path == self.root:
            raise exception.BackupDriverError(
                reason='container %r is not a directory below [backup] '
                       'posix_path' % container)
        return path

    def prepare(self, ref):
        container = ref.container or self.container or \
            default_container(ref.id)
        self.put_container(container)
        prefix = ref.prefix or self.make_prefix(
            ref, timeutils.utcnow().strftime('%Y%m%d%H%M%S'))
        return container, prefix

    def put_container(self, container):
        path = self._path(container)
        try:
            if not os.path.isdir(path):
                os.makedirs(path)
                os.chmod(path, _DIR_MODE)
        except OSError as exc:
            raise exception.BackupDriverError(
                reason='the directory of container %s cannot be made: %s'
                       % (container, exc))

    def remove_container(self, container):
        """Remove the backup's directory and the directories above it
        that it leaves empty (up to posix_path)."""
        path = self._path(container)
        while path != self.root:
            try:
                os.rmdir(path)
            except OSError:
                return
            path = os.path.dirname(path)

    def list_objects(self, container, prefix):
        try:
            return [name for name in os.listdir(self._path(container))
                    if name.startswith(prefix)]
        except FileNotFoundError:
            return []

    def write_object(self, container, name, data):
        path = self._path(container, name)
        tmp = path + chunked.PARTIAL
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                         _FILE_MODE)
            with os.fdopen(fd, 'wb') as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as exc:
            raise exception.BackupDriverError(
                reason='%s cannot be written: %s' % (path, exc))

    def read_object(self, container, name):
        path = self._path(container, name)
        try:
            with open(path, 'rb') as f:
                return f.read()
        except OSError as exc:
            raise exception.BackupDriverError(
                reason='%s cannot be read: %s' % (path, exc))

    def delete_object(self, container, name):
        try:
            os.unlink(self._path(container, name))
        except FileNotFoundError:
            pass
