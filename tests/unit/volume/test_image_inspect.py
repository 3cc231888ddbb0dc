"""Images users supply, checked and converted with the real qemu-img.

Each hostile image is made here with qemu-img itself: a qcow2 that claims
to be raw, a qcow2 with a backing file or an external data file, a vmdk
whose extent is another file of the host. None of them may be converted.
"""

import os
import subprocess

import pytest

from tests import qemu_guest
from tether import exception
from tether.drivers import qemu_img

MiB = 1024 ** 2


def _qemu_img(*args):
    subprocess.run(['qemu-img', *args], check=True, capture_output=True)


def _raw_with_a_partition_table(path, size=4 * MiB):
    """A raw disk as the tiny guest has one: an MBR, then bytes."""
    with open(path, 'wb') as f:
        f.truncate(size)
        f.seek(446)
        # One partition entry: bootable, type 0x06 (FAT16), from LBA 2048.
        f.write(bytes([0x80, 0, 0, 0, 0x06, 0, 0, 0])
                + (2048).to_bytes(4, 'little')
                + ((size // 512) - 2048).to_bytes(4, 'little'))
        f.seek(510)
        f.write(b'\x55\xaa')
        f.seek(3 * MiB)
        f.write(b'tether image content')
    return path


def _content(path, fmt):
    """The guest-visible bytes of an image, as raw."""
    out = str(path) + '.raw'
    _qemu_img('convert', '-f', fmt, '-O', 'raw', str(path), out)
    with open(out, 'rb') as f:
        return f.read()


def test_a_raw_disk_is_raw_and_its_size_is_the_files(tmp_path):
    path = _raw_with_a_partition_table(tmp_path / 'disk.img')
    assert qemu_img.inspect(str(path), 'raw') == ('raw', 4 * MiB)


def test_a_qcow2_reports_its_virtual_size(tmp_path):
    path = tmp_path / 'disk.qcow2'
    _qemu_img('create', '-f', 'qcow2', str(path), '7M')
    assert qemu_img.inspect(str(path), 'qcow2') == ('qcow2', 7 * MiB)


def test_a_qcow2_that_claims_to_be_raw_is_refused(tmp_path):
    path = tmp_path / 'disk.img'
    _qemu_img('create', '-f', 'qcow2', str(path), '1M')
    with pytest.raises(exception.ImageUnsafe) as err:
        qemu_img.inspect(str(path), 'raw')
    assert 'its content is qcow2, not the raw it claims' in str(err.value)
    assert isinstance(err.value, exception.Invalid), 'answered with 400'


def test_a_raw_file_that_claims_to_be_qcow2_is_refused(tmp_path):
    path = _raw_with_a_partition_table(tmp_path / 'disk.qcow2')
    with pytest.raises(exception.ImageUnsafe, match='not the qcow2'):
        qemu_img.inspect(str(path), 'qcow2')


def test_a_qcow2_with_a_backing_file_is_refused(tmp_path):
    secret = tmp_path / 'host-file'
    secret.write_bytes(b'not for guests')
    path = tmp_path / 'disk.qcow2'
    _qemu_img('create', '-f', 'qcow2', '-b', str(secret), '-F', 'raw',
              str(path), '1M')
    with pytest.raises(exception.ImageUnsafe, match='qcow2 image with'):
        qemu_img.inspect(str(path), 'qcow2')


def test_a_qcow2_with_an_external_data_file_is_refused(tmp_path):
    path = tmp_path / 'disk.qcow2'
    _qemu_img('create', '-f', 'qcow2', '-o',
              'data_file=%s' % (tmp_path / 'data'), str(path), '1M')
    with pytest.raises(exception.ImageUnsafe, match='qcow2 image with'):
        qemu_img.inspect(str(path), 'qcow2')


def test_a_vmdk_whose_extent_is_a_host_file_is_refused(tmp_path):
    path = tmp_path / 'disk.vmdk'
    _qemu_img('create', '-f', 'vmdk', '-o', 'subformat=monolithicFlat',
              str(path), '1M')
    with pytest.raises(exception.ImageUnsafe, match='vmdk image with'):
        qemu_img.inspect(str(path), 'vmdk')


def test_a_format_tether_does_not_convert_is_refused(tmp_path):
    path = _raw_with_a_partition_table(tmp_path / 'kernel')
    with pytest.raises(exception.ImageUnsafe, match='disk_format aki'):
        qemu_img.inspect(str(path), 'aki')


def test_a_missing_file_is_unreadable(tmp_path):
    with pytest.raises(exception.ImageUnreadable):
        qemu_img.inspect(str(tmp_path / 'gone'), 'raw')


@pytest.mark.parametrize('source_format', ['raw', 'qcow2'])
@pytest.mark.parametrize('target_format', ['raw', 'qcow2'])
def test_convert_writes_the_image_into_a_larger_volume(
        tmp_path, source_format, target_format):
    raw = _raw_with_a_partition_table(tmp_path / 'source.raw')
    source = raw
    if source_format == 'qcow2':
        source = tmp_path / 'source.qcow2'
        _qemu_img('convert', '-f', 'raw', '-O', 'qcow2', str(raw),
                  str(source))
    target = tmp_path / 'volume'
    _qemu_img('create', '-f', target_format, str(target), '16M')

    qemu_img.convert(str(source), source_format, str(target),
                     target_format)

    content = _content(target, target_format)
    assert len(content) == 16 * MiB, 'the volume keeps its size'
    assert content[:4 * MiB] == raw.read_bytes()
    assert content[4 * MiB:] == bytes(12 * MiB)


def test_convert_of_a_format_outside_the_list_is_refused(tmp_path):
    target = tmp_path / 'volume'
    _qemu_img('create', '-f', 'raw', str(target), '1M')
    with pytest.raises(exception.InvalidInput, match='unsupported image'):
        qemu_img.convert(str(target), 'aki', str(target), 'raw')
    assert os.path.getsize(target) == MiB


@pytest.mark.parametrize('sparse', [True, False], ids=['sparse', 'S0'])
def test_convert_leaves_nothing_of_the_old_data(tmp_path, sparse):
    """Where the image has zeros, the volume had data: none of it is
    left. qemu-img 7.2 writes a hole's zeros into an existing target
    (``-n``) even when sparse (it punches the hole); ``sparse=False``
    (``-S 0``, what os-reimage asks for) writes them as data, which does
    not rest on how the target's storage punches holes."""
    image = _raw_with_a_partition_table(tmp_path / 'image.raw')
    target = tmp_path / 'volume'
    _qemu_img('create', '-f', 'raw', str(target), '8M')
    with open(target, 'r+b') as f:
        f.write(os.urandom(8 * MiB))
        f.seek(3 * MiB + 4096)
        f.write(b'old secret')

    qemu_img.convert(str(image), 'raw', str(target), 'raw', sparse=sparse)

    content = _content(target, 'raw')
    assert content[:4 * MiB] == image.read_bytes()
    assert b'old secret' not in content[:4 * MiB]
    # Allocated: the image's zeros were written (-S 0), or punched.
    allocated = os.stat(target).st_blocks * 512
    assert (allocated >= 8 * MiB) is not sparse


@pytest.mark.parametrize('source_format', ['raw', 'qcow2'])
@pytest.mark.parametrize('target_format', ['raw', 'qcow2'])
def test_export_writes_a_volume_to_a_new_image(tmp_path, source_format,
                                               target_format):
    raw = _raw_with_a_partition_table(tmp_path / 'volume.raw')
    volume = raw
    if source_format == 'qcow2':
        volume = tmp_path / 'volume.qcow2'
        _qemu_img('convert', '-f', 'raw', '-O', 'qcow2', str(raw),
                  str(volume))
    target = tmp_path / 'image'

    qemu_img.export(str(volume), source_format, str(target), target_format)

    found, size = qemu_img.inspect(str(target), target_format)
    assert (found, size) == (target_format, 4 * MiB)
    assert _content(target, target_format) == raw.read_bytes()


def test_export_of_a_volume_a_guest_holds_needs_force_share(tmp_path):
    volume = _raw_with_a_partition_table(tmp_path / 'volume.raw')
    with qemu_guest.holding(str(volume)):
        with pytest.raises(exception.ImageLocked):
            qemu_img.export(str(volume), 'raw', str(tmp_path / 'a'), 'qcow2')
        qemu_img.export(str(volume), 'raw', str(tmp_path / 'b'), 'qcow2',
                        force_share=True)
    assert _content(tmp_path / 'b', 'qcow2') == volume.read_bytes()


def test_export_to_a_format_of_no_volume_is_refused(tmp_path):
    volume = _raw_with_a_partition_table(tmp_path / 'volume.raw')
    with pytest.raises(exception.InvalidInput, match='unsupported image'):
        qemu_img.export(str(volume), 'raw', str(tmp_path / 'x'), 'vmdk')
    assert not (tmp_path / 'x').exists()


# Data as it comes (a raw image written straight into a raw volume) -----------

def _chunks(path, size=MiB):
    with open(path, 'rb') as f:
        while True:
            chunk = f.read(size)
            if not chunk:
                return
            yield chunk


def test_a_stream_of_a_raw_disk_is_raw(tmp_path):
    path = _raw_with_a_partition_table(str(tmp_path / 'disk'))
    inspection = qemu_img.StreamInspection(_chunks(path), 'raw')
    assert b''.join(inspection) == open(path, 'rb').read()
    assert inspection.verdict() == ('raw', 4 * MiB)


@pytest.mark.parametrize('extra', [[], ['-b', 'BACKING', '-F', 'raw']],
                         ids=['plain', 'backing-file'])
def test_a_stream_of_a_qcow2_that_claims_to_be_raw_is_refused(tmp_path,
                                                              extra):
    backing = _raw_with_a_partition_table(str(tmp_path / 'host-file'))
    path = str(tmp_path / 'disk')
    _qemu_img('create', '-f', 'qcow2',
              *[backing if a == 'BACKING' else a for a in extra], path, '1M')
    inspection = qemu_img.StreamInspection(_chunks(path, 4096), 'raw')
    for _chunk in inspection:
        pass
    with pytest.raises(exception.ImageUnsafe, match='its content is qcow2'):
        inspection.verdict()


def test_a_stream_is_not_judged_before_it_ends(tmp_path):
    """The verdict needs all of the data: before, it cannot be had."""
    path = _raw_with_a_partition_table(str(tmp_path / 'disk'))
    inspection = qemu_img.StreamInspection(_chunks(path), 'raw')
    next(iter(inspection))
    with pytest.raises(exception.ImageUnsafe, match='once all of its data'):
        inspection.verdict()
