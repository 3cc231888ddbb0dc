"""A raw image copied into a raw volume by the kernel (copy_file_range),
and through user space where the kernel cannot."""

import errno
import os

import pytest

from tether.drivers import file_copy

MiB = 1024 ** 2


def _files(tmp_path, image, volume_size):
    source = tmp_path / 'image'
    source.write_bytes(image)
    target = tmp_path / 'volume'
    with open(target, 'wb') as f:
        f.truncate(volume_size)
        f.seek(0)
        f.write(b'\xee' * volume_size)   # old data, everywhere
    return source, target


def _image():
    # Data, a run of zeros (written as zeros: no old byte may survive
    # there), data again.
    return b'head' + bytes(3 * MiB) + os.urandom(MiB) + b'tail'


def test_the_image_and_its_zeros_are_written_and_the_volume_keeps_its_size(
        tmp_path):
    image = _image()
    source, target = _files(tmp_path, image, 8 * MiB)
    file_copy.copy_into(str(source), str(target))
    data = target.read_bytes()
    assert len(data) == 8 * MiB
    assert data[:len(image)] == image
    # Past the image, the volume is the caller's business (a re-image
    # makes the file again first).
    assert data[len(image):] == b'\xee' * (8 * MiB - len(image))


def test_an_image_longer_than_the_volume_is_refused_before_a_byte(tmp_path):
    source, target = _files(tmp_path, b'x' * (2 * MiB), MiB)
    with pytest.raises(ValueError, match='does not fit'):
        file_copy.copy_into(str(source), str(target))
    assert target.read_bytes() == b'\xee' * MiB


@pytest.mark.parametrize('code', [errno.EXDEV, errno.ENOSYS,
                                  errno.EOPNOTSUPP, errno.EINVAL])
def test_where_the_kernel_cannot_copy_the_bytes_go_through_user_space(
        tmp_path, monkeypatch, code):
    """A kernel or filesystem without copy_file_range between these two
    files (simulated: this machine's kernel has it) answers with one of
    these errors."""
    def refuse(*args):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr(os, 'copy_file_range', refuse)
    image = _image()
    source, target = _files(tmp_path, image, 8 * MiB)
    file_copy.copy_into(str(source), str(target))
    assert target.read_bytes()[:len(image)] == image


def test_other_errors_of_the_kernel_fail_the_copy(tmp_path, monkeypatch):
    def fail(*args):
        raise OSError(errno.EIO, 'I/O error')
    monkeypatch.setattr(os, 'copy_file_range', fail)
    source, target = _files(tmp_path, _image(), 8 * MiB)
    with pytest.raises(OSError, match='I/O error'):
        file_copy.copy_into(str(source), str(target))
