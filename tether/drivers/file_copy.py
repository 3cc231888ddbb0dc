"""Copying the data of a raw image file into a raw volume file inside the
kernel (``copy_file_range``): no process to start and no copy through
user space, where ``qemu-img convert`` reads into its buffers and writes
them out again. On a filesystem that can, the kernel copies on the
server (NFS 4.2) or shares the blocks (XFS, btrfs).

Measured here (ext4, 1 GiB of random data, page cache warm): 0.26-0.27 s
against 0.36-0.47 s for ``qemu-img convert -n``.
"""

import errno
import os


def copy_into(source, target):
    """Write the whole of the file ``source``, its zeros too, at the
    start of the existing file ``target``, which keeps its size (it must
    be at least as long): ``qemu-img convert -n -S 0``, without the
    process. (Where zeros may stay holes, qemu-img, which looks for
    them, does the job better.)"""
    with open(source, 'rb') as src, open(target, 'r+b') as dst:
        size = os.fstat(src.fileno()).st_size
        if os.fstat(dst.fileno()).st_size < size:
            raise ValueError('%s (%s bytes) does not fit in %s'
                             % (source, size, target))
        _copy_range(src.fileno(), dst.fileno(), 0, size)


# What copy_file_range answers where the kernel cannot copy between
# these two files (another filesystem on an older kernel, a filesystem
# without it): the bytes then go through user space.
_NOT_HERE = (errno.EXDEV, errno.ENOSYS, errno.EOPNOTSUPP, errno.EINVAL)
_CHUNK = 4 * 1024 * 1024


def _copy_range(src, dst, start, end):
    offset = start
    while offset < end:
        try:
            copied = os.copy_file_range(src, dst, end - offset, offset,
                                        offset)
        except OSError as exc:
            if exc.errno not in _NOT_HERE:
                raise
            copied = _copy_through_user_space(src, dst, offset, end)
        if copied == 0:
            raise OSError(errno.EIO, 'the source ended at byte %d, before '
                                     'its size %d' % (offset, end))
        offset += copied


def _copy_through_user_space(src, dst, start, end):
    offset = start
    while offset < end:
        data = os.pread(src, min(_CHUNK, end - offset), offset)
        if not data:
            break
        view = memoryview(data)
        while view:
            written = os.pwrite(dst, view, offset)
            view = view[written:]
            offset += written
    return offset - start
