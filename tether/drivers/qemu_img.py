"""The only way tether runs qemu-img: argument lists, LC_ALL=C, explicit
formats, JSON output and resource limits."""

import re
import shutil

from oslo_concurrency import processutils
from oslo_log import log as logging
from oslo_utils import imageutils

from tether import exception

LOG = logging.getLogger(__name__)

QEMU_IMG = 'qemu-img'
FORMATS = ('raw', 'qcow2')
# QEMU's image locking (util/osdep.c, block/file-posix.c): 'Failed to get
# "write" lock', 'Failed to get shared "write" lock', 'Failed to get
# "resize" lock' and others of the same shape, each a permission another
# process holds.
_LOCK_ERROR = re.compile(r'Failed to get (shared )?"[a-z -]+" lock')

# Defaults; a backend passes its own limits.
DEFAULT_LIMITS = processutils.ProcessLimits(cpu_time=30,
                                            address_space=1024 ** 3)


# util-linux prlimit(1) sets the same rlimits as oslo.concurrency's prlimit
# wrapper, which starts a Python interpreter for every call (measured here:
# 5 ms against 160 ms per qemu-img call on a busy 2-core machine).
PRLIMIT = shutil.which('prlimit')


def _limited(cmd, limits):
    if PRLIMIT is None:
        return cmd, {'prlimit': limits}
    return ([PRLIMIT, '--cpu=%d' % limits.cpu_time,
             '--as=%d' % limits.address_space, '--'] + cmd), {}


def _run(args, path, limits=None):
    cmd = [QEMU_IMG] + args
    full_cmd, kwargs = _limited(cmd, limits or DEFAULT_LIMITS)
    try:
        out, _err = processutils.execute(
            *full_cmd, env_variables={'LC_ALL': 'C', 'LANG': 'C'}, **kwargs)
        return out
    except processutils.ProcessExecutionError as exc:
        stderr = exc.stderr or ''
        if _LOCK_ERROR.search(stderr):
            raise exception.ImageLocked(cmd=' '.join(cmd), path=path)
        raise exception.ProcessFailed(cmd=' '.join(cmd),
                                      reason=stderr.strip() or str(exc))


def _check_format(fmt):
    if fmt not in FORMATS:
        raise exception.InvalidInput(reason='unsupported image format %s'
                                            % fmt)


def create(path, fmt, size_bytes, preallocation=None, limits=None):
    _check_format(fmt)
    args = ['create', '-f', fmt]
    if preallocation:
        args += ['-o', 'preallocation=%s' % preallocation]
    _run(args + [path, str(size_bytes)], path, limits)


def resize(path, fmt, size_bytes, limits=None):
    """Grow an image; raises ImageLocked while a guest holds it."""
    _check_format(fmt)
    _run(['resize', '-f', fmt, path, str(size_bytes)], path, limits)


def info(path, fmt=None, force_share=False, limits=None):
    """qemu-img info as oslo.utils' QemuImgInfo (virtual_size in bytes)."""
    args = ['info', '--output=json']
    if fmt:
        _check_format(fmt)
        args += ['-f', fmt]
    if force_share:
        args.append('--force-share')
    out = _run(args + [path], path, limits)
    return imageutils.QemuImgInfo(out, format='json')
