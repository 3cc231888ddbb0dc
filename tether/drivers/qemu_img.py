"""The only way tether runs qemu-img: argument lists, LC_ALL=C, explicit
formats, JSON output and resource limits."""

import fcntl
import os
import re
import shutil
import struct
import subprocess
import time

from oslo_concurrency import processutils
from oslo_log import log as logging
from oslo_utils import imageutils
from oslo_utils.imageutils import format_inspector

from tether import exception
from tether import images

LOG = logging.getLogger(__name__)

QEMU_IMG = 'qemu-img'
FORMATS = ('raw', 'qcow2')
# The disk formats of images a user may supply (Glance's names): qemu-img
# reads them, after oslo.utils' format inspector found each safe.
SOURCE_FORMATS = images.SOURCE_FORMATS
# qemu-img's names where Glance's differ.
_QEMU_FORMATS = {'vhd': 'vpc', 'iso': 'raw'}
# What the inspector may find in a file of each disk format besides the
# format itself: a raw disk with a partition table (MBR or GPT), an ISO
# whose image has no ISO signature it knows (raw).
_ALSO = {'raw': ('gpt',), 'iso': ('raw', 'gpt')}
# QEMU's image locking (util/osdep.c, block/file-posix.c): 'Failed to get
# "write" lock', 'Failed to get shared "write" lock', 'Failed to get
# "resize" lock' and others of the same shape, each a permission another
# process holds.
_LOCK_ERROR = re.compile(r'Failed to get (shared )?"[a-z -]+" lock')
# Those locks are shared OFD locks on single bytes of the image file
# (block/file-posix.c): byte 100 + n for each permission n a holder uses,
# 200 + n for each it will not share with other processes. They are the
# same in every QEMU since 2.10: QEMUs of different versions must see
# each other's.
_WONT_SHARE = 200
_READ, _WRITE, _RESIZE = 0, 1, 3
# The bytes ``qemu-img resize`` finds locked when it cannot open an image
# for itself: it reads, writes and resizes the image, so a holder that
# will not share one of those stops it. (A qcow2's format layer never
# shares writes and resizes of its file: any holder of one locks these.)
_RESIZE_CONFLICTS = (_WONT_SHARE + _READ, _WONT_SHARE + _WRITE,
                     _WONT_SHARE + _RESIZE)
# The byte a holder that writes the image locks (a guest's QEMU with the
# disk read-write, shared or not; qemu-io without -r).
_USES = 100
_WRITERS = (_USES + _WRITE,)
# struct flock of <fcntl.h> on Linux (a 64-bit off_t; l_pid 0 for OFD
# locks).
_FLOCK = '@hhqqi4x'

# Defaults; a backend passes its own limits.
DEFAULT_LIMITS = processutils.ProcessLimits(cpu_time=30,
                                            address_space=1024 ** 3)
# A conversion reads and writes the whole image: minutes of CPU for a large
# compressed one, and more memory for its buffers.
CONVERT_LIMITS = processutils.ProcessLimits(cpu_time=3600,
                                            address_space=2 * 1024 ** 3)
PRLIMIT = shutil.which('prlimit')
# Also processutils' choice: qemu-img's messages in English, to match.
_ENV = {'LC_ALL': 'C', 'LANG': 'C'}


def _spawn(cmd):
    """(stdout, stderr) of ``cmd``; ProcessExecutionError if it fails.

    processutils.execute always hands subprocess a preexec_fn, and with one
    subprocess must fork() the whole service process instead of vfork()ing:
    in a tether-aio of some hundred MiB with its threads that costs 15 ms
    per command, during which no other thread runs (measured here: qemu-img
    info 20 ms through processutils, 5 ms without). Its preexec_fn only
    restores SIGPIPE, which subprocess does itself (restore_signals). The
    log lines are processutils' own.
    """
    LOG.debug('Running cmd (subprocess): %s', ' '.join(cmd))
    start = time.monotonic()
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                          capture_output=True, env=_ENV, check=False)
    out = proc.stdout.decode('utf-8', 'replace')
    err = proc.stderr.decode('utf-8', 'replace')
    LOG.debug('CMD "%s" returned: %s in %0.3fs', ' '.join(cmd),
              proc.returncode, time.monotonic() - start)
    if proc.returncode:
        raise processutils.ProcessExecutionError(
            stdout=out, stderr=err, exit_code=proc.returncode,
            cmd=' '.join(cmd))
    return out, err


def _execute(cmd, limits):
    """Run ``cmd`` under ``limits``: util-linux prlimit(1) sets the same
    rlimits as oslo.concurrency's prlimit wrapper, which starts a Python
    interpreter for every call (5 ms against 160 ms per qemu-img call on a
    busy 2-core machine); without prlimit(1), that wrapper."""
    if PRLIMIT is None:
        return processutils.execute(*cmd, env_variables=dict(_ENV),
                                    prlimit=limits)
    return _spawn([PRLIMIT, '--cpu=%d' % limits.cpu_time,
                   '--as=%d' % limits.address_space, '--'] + cmd)


def _run(args, path, limits=None):
    cmd = [QEMU_IMG] + args
    try:
        out, _err = _execute(cmd, limits or DEFAULT_LIMITS)
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
    """A new image file, or one made again in place (same inode, none of
    its data; qemu-img refuses while a QEMU holds it: ImageLocked). A new
    raw file without preallocation is all holes: it is made here, without
    the 6-10 ms of starting qemu-img under prlimit, on the path of every
    volume create."""
    _check_format(fmt)
    if fmt == 'raw' and not preallocation:
        try:
            with open(path, 'xb') as f:
                f.truncate(size_bytes)
            return
        except FileExistsError:
            pass
        except OSError as exc:
            raise exception.ProcessFailed(cmd='create %s' % path,
                                          reason=exc)
    args = ['create', '-f', fmt]
    if preallocation:
        args += ['-o', 'preallocation=%s' % preallocation]
    _run(args + [path, str(size_bytes)], path, limits)


def create_overlay(path, backing, backing_format, size_bytes, limits=None):
    """A new qcow2 image at ``path`` whose unwritten blocks read from
    ``backing`` (in ``backing_format``, named: never probed), of virtual
    size ``size_bytes``: a guest's root disk on a cached image."""
    _check_format(backing_format)
    _run(['create', '-f', 'qcow2', '-b', backing, '-F', backing_format,
          path, str(size_bytes)], path, limits)


def commit(path, limits=None):
    """Write the qcow2 overlay ``path``'s data into its backing file (in
    the format its header names, written there when it was made) and
    leave the overlay as it was (``-d``): the caller removes it. Run
    again, it writes the same data again. The backing file grows to the
    overlay's virtual size if it was smaller."""
    _run(['commit', '-f', 'qcow2', '-d', path], path,
         limits or CONVERT_LIMITS)


def rebase_unsafe(path, backing, backing_format, limits=None):
    """Point the qcow2 overlay ``path`` at ``backing`` (named relative to
    the overlay's directory, in ``backing_format``: never probed) without
    reading any data (``-u``): right only when ``backing`` reads as the
    old backing file did."""
    _check_format(backing_format)
    _run(['rebase', '-f', 'qcow2', '-u', '-b', backing, '-F',
          backing_format, path], path, limits)


def rebase(path, backing, backing_format, limits=None):
    """Point the qcow2 overlay ``path`` at ``backing`` (named relative to
    the overlay's directory, in ``backing_format``: never probed; None: no
    backing file at all), first copying into it every block it reads
    differently through its old backing files than through the new: it
    reads the same data after. Run again, it does nothing more."""
    if backing is None:
        args = ['-b', '']
    else:
        _check_format(backing_format)
        args = ['-b', backing, '-F', backing_format]
    _run(['rebase', '-f', 'qcow2'] + args + [path], path,
         limits or CONVERT_LIMITS)


def resize(path, fmt, size_bytes, limits=None):
    """Grow an image; raises ImageLocked while a guest holds it.

    The locks are tested here first (:func:`held_against_resize`): an
    extend of an attached volume (a running guest holds it) then costs
    no qemu-img process that can only fail. qemu-img still tests them
    itself when it runs: a guest that starts in between makes it fail
    with the same ImageLocked."""
    _check_format(fmt)
    args = ['resize', '-f', fmt, path, str(size_bytes)]
    if held_against_resize(path):
        LOG.debug('Not running qemu-img resize of %s: another process '
                  'holds it', path)
        raise exception.ImageLocked(
            cmd=' '.join([QEMU_IMG] + args) + ' (not run)', path=path)
    _run(args, path, limits)


def held_against_resize(path):
    """Whether another process holds the image ``path`` so that
    ``qemu-img resize`` would fail on its locks. False where the file
    cannot be opened or its filesystem does not answer lock tests:
    qemu-img then tells."""
    return _held(path, _RESIZE_CONFLICTS)


def held_for_writing(path):
    """Whether another process holds the image ``path`` to write it: a
    running guest's QEMU with the disk read-write (multiattach's shared
    writes too) or qemu-io, not a read-only holder. Unlike a failing
    ``qemu-img info``, which is the same answer for a qcow2 only, it
    tells for a raw file too (qemu-img info reads a raw file under a
    writer). False where the file cannot be opened or its filesystem does
    not answer lock tests."""
    return _held(path, _WRITERS)


def _held(path, offsets):
    """Whether another process locks any of the bytes ``offsets`` of
    ``path``: QEMU's own test (``qemu_lock_fd_test`` in util/osdep.c,
    F_OFD_GETLK for a write lock on each byte), with no lock taken."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        return any(_locked_by_another(fd, offset) for offset in offsets)
    except OSError:
        return False
    finally:
        os.close(fd)


def _locked_by_another(fd, offset):
    probe = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, offset, 1, 0)
    answer = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, probe)
    return struct.unpack(_FLOCK, answer)[0] != fcntl.F_UNLCK


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


def virtual_size(path, fmt):
    """The virtual size in bytes, from the image's header, without
    starting qemu-img (reading is allowed while a guest holds the image):
    a raw file's length, or the size field of a qcow2 header (oslo.utils'
    format inspector)."""
    _check_format(fmt)
    try:
        if fmt == 'raw':
            return os.stat(path).st_size
        return format_inspector.QcowInspector.from_file(path).virtual_size
    except (OSError, format_inspector.ImageFormatError) as exc:
        raise exception.ImageUnreadable(path=path, reason=exc)


def inspect(path, claimed_format):
    """(format, virtual size in bytes) of an image file a user supplied,
    once oslo.utils' format inspector found that it is what it claims to
    be (``claimed_format``, Glance's ``disk_format``) and safe: a file that
    claims raw but is a qcow2 would make qemu-img follow its backing file,
    a qcow2 with a backing or data file or a vmdk with extents outside it
    reads other files of the host (CVE-2024-32498 and its kin).
    ImageUnsafe when it is not."""
    if claimed_format not in SOURCE_FORMATS:
        raise exception.ImageUnsafe(
            reason='disk_format %s is not one tether converts (%s)'
                   % (claimed_format, ', '.join(SOURCE_FORMATS)))
    try:
        inspector = format_inspector.detect_file_format(path)
    except format_inspector.ImageFormatError as exc:
        raise exception.ImageUnsafe(
            reason='its format cannot be told: %s' % exc)
    except OSError as exc:
        raise exception.ImageUnreadable(path=path, reason=exc)
    return _verdict(inspector, claimed_format, lambda: os.stat(path).st_size)


def _verdict(inspector, claimed_format, raw_size):
    """(format, virtual size) once ``inspector`` (what oslo.utils found;
    None: raw) agrees with ``claimed_format`` and is safe; ``raw_size()``
    is the data's size."""
    found = inspector.NAME if inspector is not None else 'raw'
    if found != claimed_format and found not in _ALSO.get(claimed_format,
                                                          ()):
        raise exception.ImageUnsafe(
            reason='its content is %s, not the %s it claims to be'
                   % (found, claimed_format))
    if inspector is not None:
        try:
            inspector.safety_check()
        except format_inspector.SafetyCheckFailed as exc:
            raise exception.ImageUnsafe(
                reason='%s image with %s' % (found, exc))
    if claimed_format in ('raw', 'iso'):
        return claimed_format, raw_size()
    return found, inspector.virtual_size


class StreamInspection:
    """What :func:`inspect` says of a file, said of data as it comes (a
    raw image written straight into a volume): iterate this in place of
    ``chunks``, which every inspector of oslo.utils reads too, then ask
    :meth:`verdict`. Nothing may trust the data before that."""

    def __init__(self, chunks, claimed_format):
        if claimed_format not in SOURCE_FORMATS:
            raise exception.ImageUnsafe(
                reason='disk_format %s is not one tether converts (%s)'
                       % (claimed_format, ', '.join(SOURCE_FORMATS)))
        self.claimed_format = claimed_format
        self.wrapper = format_inspector.InspectWrapper(iter(chunks))
        self.size = 0
        self.done = False

    def __iter__(self):
        for chunk in self.wrapper:
            self.size += len(chunk)
            yield chunk
        self.done = True

    def verdict(self):
        """(format, virtual size), or ImageUnsafe; once all was read."""
        if not self.done:
            raise exception.ImageUnsafe(
                reason='its format is told once all of its data was read, '
                       'and %s bytes were' % self.size)
        try:
            inspector = self.wrapper.format
        except format_inspector.ImageFormatError as exc:
            raise exception.ImageUnsafe(
                reason='its format cannot be told: %s' % exc)
        return _verdict(inspector, self.claimed_format, lambda: self.size)


def convert(source, source_format, target, target_format, sparse=True,
            limits=None, existing=True):
    """Write the image ``source`` into the existing image ``target``
    (``-n``: its size and format stay); ``source_format`` is a disk
    format of SOURCE_FORMATS that :func:`inspect` accepted. With
    ``existing`` false, ``target`` is a new file of the image's size.

    ``sparse`` false writes the zeros of the image too (``-S 0``): over
    a target that held other data, no old byte survives where the image
    has a hole."""
    _check_format(target_format)
    if source_format not in SOURCE_FORMATS:
        raise exception.InvalidInput(reason='unsupported image format %s'
                                            % source_format)
    argv = ['convert', '-f', _QEMU_FORMATS.get(source_format, source_format),
            '-O', target_format]
    if existing:
        argv.append('-n')
    if not sparse:
        argv += ['-S', '0']
    _run(argv + [source, target], target, limits or CONVERT_LIMITS)


def export(source, source_format, target, target_format, force_share=False,
           limits=None):
    """Write the volume file ``source`` (``source_format``, one of FORMATS:
    a file tether made) to the new file ``target`` in ``target_format``
    (raw or qcow2: the disk formats an image made of a volume may have).

    ``force_share`` reads a file a running guest holds (``-U``): what is
    copied is then as consistent as the disk of a guest that crashed."""
    _check_format(source_format)
    _check_format(target_format)
    argv = ['convert', '-f', source_format, '-O', target_format]
    if force_share:
        argv.append('-U')
    _run(argv + [source, target], source, limits or CONVERT_LIMITS)
