"""The raw data of a volume as the backup drivers handle it: pieces read
whole, holes (what a sparse file does not store), the runs of blocks
that changed since a parent backup, and the compressions a piece may
have."""

import bz2
import errno
import io
import os
import zlib

from tether.volume import backup_exception as exception

COMPRESSORS = {
    'zlib': (zlib.compress, zlib.decompress),
    'gzip': (zlib.compress, zlib.decompress),
    'bz2': (bz2.compress, bz2.decompress),
    'bzip2': (bz2.compress, bz2.decompress),
}
NONE = ('none', 'off', 'no')


def decompressor(algorithm):
    if algorithm is None or algorithm.lower() in NONE:
        return None
    try:
        return COMPRESSORS[algorithm.lower()][1]
    except KeyError:
        raise exception.BackupDriverError(
            reason='a piece is compressed with %s, which this driver '
                   'does not read' % algorithm)


def read_full(source, size):
    """``size`` bytes of ``source`` (fewer only at its end)."""
    parts = []
    left = size
    while left:
        data = source.read(left)
        if not data:
            break
        parts.append(data)
        left -= len(data)
    return parts[0] if len(parts) == 1 else b''.join(parts)


def hole_length(f, size):
    """How many of the next ``size`` bytes of the file object ``f`` are
    a hole (they read zeros and are not stored: SEEK_DATA finds no data
    there), from its position; 0 if it cannot tell (not a file, or a
    filesystem that says every byte is data)."""
    try:
        fd = f.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return 0
    f.flush()
    position = f.tell()
    end = min(position + size, os.fstat(fd).st_size)
    if end <= position:
        return 0
    try:
        data = os.lseek(fd, position, os.SEEK_DATA)
    except OSError as exc:
        if exc.errno != errno.ENXIO:
            return 0
        data = end            # no data after the position at all
    finally:
        f.seek(position)
    return max(0, min(data, end) - position)


def changed_extents(shas, parent_shas, first, block_size, length):
    """The ``(start, end)`` byte ranges of a piece of ``length`` bytes
    whose blocks' ``shas`` differ from ``parent_shas`` (the piece's
    first block is block ``first`` of the volume; a block the parent
    did not have has changed)."""
    extents = []
    start = None
    for i, sha in enumerate(shas):
        index = first + i
        same = index < len(parent_shas) and parent_shas[index] == sha
        if not same and start is None:
            start = i * block_size
        elif same and start is not None:
            extents.append((start, i * block_size))
            start = None
    if start is not None:
        extents.append((start, length))
    return extents
