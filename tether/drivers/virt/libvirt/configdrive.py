"""A guest's config drive: a small FAT disk labelled ``config-2`` (Nova's
vfat config drive) holding the files the compute service gives it,
``<instance dir>/disk.config``.

Made with Debian's dosfstools and mtools into a plain file: nothing is
mounted, no root or loop device is needed. The disk is attached read-only
after the guest's other boot disks; a guest reads it by its label.
"""

import os
import subprocess
import tempfile

from oslo_log import log as logging

from tether.compute import exception

LOG = logging.getLogger(__name__)

NAME = 'disk.config'
LABEL = 'config-2'
# Nova makes 64 MiB; its files are a few KiB (user data is at most 64 KiB
# of base64), and a small FAT12 is quicker to make and to copy.
SIZE_KIB = 4096
TIMEOUT = 60
_ENV = {'LC_ALL': 'C', 'LANG': 'C', 'PATH': '/usr/sbin:/usr/bin:/sbin:/bin',
        # mtools checks the geometry of floppies; this is a plain image.
        'MTOOLS_SKIP_CHECK': '1'}


def _run(*cmd):
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              capture_output=True, env=_ENV,
                              timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise exception.VirtError(reason='%s failed: %s' % (cmd[0], exc))
    if proc.returncode:
        raise exception.VirtError(
            reason='%s exited %d making a config drive: %s' % (
                cmd[0], proc.returncode,
                proc.stderr.decode('utf-8', 'replace').strip()))


def make(path, files):
    """Write the config drive ``path``: a FAT file system labelled
    config-2 with ``files`` ({relative path: bytes}); replaced whole."""
    part = path + '.part'
    try:
        os.unlink(part)
    except FileNotFoundError:
        pass
    _run('mkfs.vfat', '-C', '-n', LABEL, part, str(SIZE_KIB))
    with tempfile.TemporaryDirectory(prefix='tether-config-') as tree:
        tops = set()
        for name, data in files.items():
            parts = name.split('/')
            if not name or name.startswith('/') or '..' in parts:
                raise ValueError('bad config drive path %r' % name)
            target = os.path.join(tree, *parts)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, 'wb') as f:
                f.write(data)
            tops.add(parts[0])
        for top in sorted(tops):
            _run('mcopy', '-s', '-i', part, os.path.join(tree, top), '::/')
    # QEMU (libvirt-qemu) reads it.
    os.chmod(part, 0o644)
    os.rename(part, path)
    LOG.debug('Made the config drive %s (%d files)', path, len(files))
    return path
