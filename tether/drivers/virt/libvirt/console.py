"""The guest's console log on the host: where it is and its last bytes.

libvirt has virtlogd write what the guest prints on its serial console to
``<instances_path>/<uuid>/console.log`` (the ``<log>`` of the serial
device, config.serial_console). virtlogd rotates a log that grows past
its ``max_size`` (2 MiB by default) to ``console.log.0``, the previous
``.0`` to ``.1`` and so on (``max_backups``, 3): the newest bytes are at
the end of ``console.log``, the ones before them at the end of ``.0``.

The file is read with plain file calls (no shell, no subprocess), at most
``MAX_CONSOLE_BYTES`` of it, as Nova reads at most 100 KiB.
"""

import errno
import os
import stat

LOG_NAME = 'console.log'
# What one request reads at most (Nova's MAX_CONSOLE_BYTES).
MAX_CONSOLE_BYTES = 100 * 1024
# Rotated copies looked at beyond console.log (virtlogd keeps 3 by
# default; a larger max_backups only adds older bytes than the limit
# would let through after a few files anyway).
MAX_ROTATED = 9


def log_path(instances_path, instance_uuid):
    """Where the console of ``instance_uuid`` is logged."""
    return os.path.join(instances_path, instance_uuid, LOG_NAME)


def is_log_of(path, instance_uuid):
    """Whether ``path`` (from a domain's XML) is a console log that the
    driver made for ``instance_uuid``: ``.../<uuid>/console.log``. Any
    other file is not read for an API caller, whatever the XML says."""
    return (os.path.isabs(path) and os.path.basename(path) == LOG_NAME and
            os.path.basename(os.path.dirname(path)) == instance_uuid)


def _tail_of_file(path, limit):
    """The last ``limit`` bytes of the regular file ``path``; None if it
    does not exist (or is not a regular file)."""
    try:
        # O_NONBLOCK: a FIFO put in its place is refused below, not
        # waited on; O_NOFOLLOW: nor is a symbolic link followed.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK |
                     os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:      # a symbolic link
            return None
        raise
    with os.fdopen(fd, 'rb') as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        f.seek(max(0, st.st_size - limit))
        # A log that grew since fstat gives no more than the limit.
        return f.read(limit)


def tail(path, limit=MAX_CONSOLE_BYTES):
    """The last ``limit`` bytes logged to ``path`` and its rotated copies,
    oldest first; ``b''`` when nothing has been logged yet."""
    chunks = []
    left = limit
    for candidate in [path] + ['%s.%d' % (path, i)
                               for i in range(MAX_ROTATED)]:
        if left <= 0:
            break
        data = _tail_of_file(candidate, left)
        if data is None:
            break
        chunks.append(data)
        left -= len(data)
    return b''.join(reversed(chunks))
