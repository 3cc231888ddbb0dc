"""A real QEMU process that holds an image open, as a running guest does."""

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

QEMU = shutil.which('qemu-system-x86_64')


@contextlib.contextmanager
def holding(path, fmt='raw', read_only=False, share_rw=False):
    """Run a paused guest with ``path`` as its virtio disk (its write lock;
    ``read_only``: a read-only disk; ``share_rw``: a disk it lets others
    write too, as a multiattach volume is).

    Skips the test when QEMU is not installed (bindep: qemu-system-x86).
    """
    if QEMU is None:
        pytest.skip('qemu-system-x86_64 is not installed (bindep: '
                    'qemu-system-x86)')
    ro = 'on' if read_only else 'off'
    with tempfile.TemporaryDirectory() as tmp:
        pidfile = os.path.join(tmp, 'qemu.pid')
        subprocess.run(
            [QEMU, '-machine', 'q35', '-accel', 'tcg', '-m', '32',
             '-nodefaults', '-display', 'none', '-S',
             '-blockdev', 'driver=file,filename=%s,node-name=f0,'
             'read-only=%s' % (path, ro),
             '-blockdev', 'driver=%s,file=f0,node-name=d0,read-only=%s'
             % (fmt, ro),
             '-device', 'virtio-blk-pci,drive=d0,share-rw=%s'
             % ('on' if share_rw else 'off'),
             '-daemonize', '-pidfile', pidfile],
            check=True, capture_output=True, timeout=30)
        with open(pidfile) as f:
            pid = int(f.read())
        try:
            yield pid
        finally:
            _kill(pid)


def _gone(pid):
    """Exited with its files closed: no such process, or a zombie with
    no thread left (PID 1 here reaps late, and ``kill(pid, 0)`` succeeds
    on a zombie). The leader of QEMU's threads shows ``Z`` as soon as it
    exits, while its other threads may still hold the image open, and
    its lock with it: they are gone once ``task`` lists the leader
    alone."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            if f.read().rsplit(')', 1)[1].split()[0] != 'Z':
                return False
        return len(os.listdir('/proc/%d/task' % pid)) <= 1
    except FileNotFoundError:
        return True


def _kill(pid):
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if _gone(pid):
            return
        time.sleep(0.02)
