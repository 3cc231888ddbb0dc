"""The lock tests of qemu_img against the real qemu-img, for each way a
real QEMU process (a paused guest, qemu-io) holds an image:

* held_against_resize says "held" exactly when ``qemu-img resize`` fails
  on a lock, and never when it would succeed (the resize would then go
  to the hypervisor for no reason);
* held_for_writing says "held" exactly when the holder writes the image,
  which for a qcow2 is when ``qemu-img info`` (without -U) fails on a
  lock; for a raw file qemu-img info succeeds under a writer."""

import contextlib
import subprocess
import time

import pytest

from tests import qemu_guest
from tether.drivers import qemu_img
from tether import exception

GiB = 1024 ** 3


@contextlib.contextmanager
def _qemu_io(path, fmt, *flags):
    """qemu-io with ``path`` open (read-write unless ``-r``), as a tool
    that holds an image and lets others write and resize it does."""
    proc = subprocess.Popen(['qemu-io', '-f', fmt] + list(flags) + [path],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        # Open once its lock shows: a write lock test on byte 100 (it
        # reads the image) conflicts with it.
        while not _any_lock(path):
            assert proc.poll() is None, 'qemu-io ended'
            assert time.monotonic() < deadline, 'qemu-io never locked'
            time.sleep(0.01)
        yield
    finally:
        proc.stdin.close()
        proc.wait(10)


def _any_lock(path):
    with open(path, 'rb') as f:
        return qemu_img._locked_by_another(f.fileno(), 100)


HOLDERS = {
    'nothing': lambda path, fmt: contextlib.nullcontext(),
    'a guest': lambda path, fmt: qemu_guest.holding(path, fmt=fmt),
    'a guest, read-only': lambda path, fmt: qemu_guest.holding(
        path, fmt=fmt, read_only=True),
    'a guest sharing writes': lambda path, fmt: qemu_guest.holding(
        path, fmt=fmt, share_rw=True),
    'qemu-io': lambda path, fmt: _qemu_io(path, fmt),
    'qemu-io, read-only': lambda path, fmt: _qemu_io(path, fmt, '-r'),
}


def _real_qemu_img_fails_on_a_lock(*args):
    """Whether ``qemu-img args...`` fails, on a lock (any other failure
    fails the test)."""
    proc = subprocess.run(['qemu-img'] + list(args), capture_output=True,
                          text=True)
    if proc.returncode == 0:
        return False
    assert qemu_img._LOCK_ERROR.search(proc.stderr), proc.stderr
    return True


def _image(tmp_path, fmt):
    path = str(tmp_path / ('disk.' + fmt))
    subprocess.run(['qemu-img', 'create', '-f', fmt, path, str(GiB)],
                   check=True, capture_output=True)
    return path


@pytest.mark.parametrize('holder', sorted(HOLDERS))
@pytest.mark.parametrize('fmt', ['raw', 'qcow2'])
def test_the_lock_test_agrees_with_qemu_img(tmp_path, fmt, holder):
    path = _image(tmp_path, fmt)
    with HOLDERS[holder](path, fmt):
        said = qemu_img.held_against_resize(path)
        assert said == _real_qemu_img_fails_on_a_lock(
            'resize', '-f', fmt, path, str(2 * GiB))


# Whether each holder writes the image.
WRITES = {'nothing': False, 'a guest': True, 'a guest, read-only': False,
          'a guest sharing writes': True, 'qemu-io': True,
          'qemu-io, read-only': False}


@pytest.mark.parametrize('holder', sorted(HOLDERS))
@pytest.mark.parametrize('fmt', ['raw', 'qcow2'])
def test_the_writer_test_sees_each_writer(tmp_path, fmt, holder):
    path = _image(tmp_path, fmt)
    with HOLDERS[holder](path, fmt):
        said = qemu_img.held_for_writing(path)
        assert said == WRITES[holder]
        if fmt == 'qcow2':
            assert said == _real_qemu_img_fails_on_a_lock(
                'info', '-f', fmt, path)


def test_a_held_image_is_not_handed_to_qemu_img(tmp_path, monkeypatch):
    path = str(tmp_path / 'disk.raw')
    qemu_img.create(path, 'raw', GiB)
    ran = []
    real_execute = qemu_img._execute
    monkeypatch.setattr(qemu_img, '_execute',
                        lambda cmd, limits: ran.append(cmd) or
                        real_execute(cmd, limits))
    with qemu_guest.holding(path):
        with pytest.raises(exception.ImageLocked) as info:
            qemu_img.resize(path, 'raw', 2 * GiB)
    assert ran == []
    assert info.value.kwargs['cmd'].endswith('(not run)')
    qemu_img.resize(path, 'raw', 2 * GiB)
    assert len(ran) == 1
    assert ran[0][-5:] == ['resize', '-f', 'raw', path, str(2 * GiB)]


def test_what_cannot_be_opened_is_left_to_qemu_img(tmp_path):
    missing = str(tmp_path / 'missing.raw')
    assert not qemu_img.held_against_resize(missing)
    assert not qemu_img.held_for_writing(missing)
    with pytest.raises(exception.ProcessFailed) as info:
        qemu_img.resize(missing, 'raw', GiB)
    assert not isinstance(info.value, exception.ImageLocked)
