"""The remotefs driver on a temporary directory, with the real qemu-img.

The directory is a local share (an absolute path in nfs_shares); a real
QEMU process holds an image to prove the ImageLocked mapping.
"""

import json
import os
import subprocess
import uuid

import pytest
from oslo_config import cfg

from tests import qemu_guest
from tether.conf import backend as conf_backend
from tether.drivers import qemu_img
from tether.drivers.volume import remotefs
from tether.volume import exception
from tether.objects.volume import volume as volume_obj

GiB = 1024 ** 3


def _config(share, **overrides):
    conf = cfg.ConfigOpts()
    conf.register_opts(conf_backend.backend_opts, group='b')
    conf([], project='tether-test')
    conf.set_override('nfs_shares', [str(share)], group='b')
    for key, value in overrides.items():
        conf.set_override(key, value, group='b')
    return conf.b


@pytest.fixture
def share(tmp_path):
    return tmp_path / 'share'


@pytest.fixture
def driver(share):
    drv = remotefs.RemoteFSDriver(_config(share), 'host@b')
    drv.do_setup()
    return drv


def _volume(size, **values):
    volume = volume_obj.Volume(
        id=str(uuid.uuid4()), size=size, host='host@b', status='creating',
        provider_location=None, admin_metadata={}, metadata={})
    for key, value in values.items():
        setattr(volume, key, value)
    return volume


def _info(path):
    out = subprocess.run(['qemu-img', 'info', '--output=json', '-U',
                          str(path)], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def _created(driver, size, **values):
    volume = _volume(size, **values)
    update = driver.create_volume(volume)
    volume.provider_location = update['provider_location']
    volume.admin_metadata = update['admin_metadata']
    return volume, driver.local_path(volume)


def test_setup_makes_the_share_and_reports_it(driver, share):
    assert share.is_dir()
    stats = driver.get_volume_stats()
    (pool,) = stats['pools']
    assert pool['pool_name'] == str(share)
    assert pool['total_capacity_gb'] > 0
    assert 0 <= pool['free_capacity_gb'] <= pool['total_capacity_gb']


def test_setup_without_shares_fails(tmp_path):
    drv = remotefs.RemoteFSDriver(_config(tmp_path, nfs_shares=[]), 'host@b')
    with pytest.raises(exception.RemoteFSNoSharesMounted):
        drv.do_setup()


def test_create_extend_delete(driver, share):
    volume, path = _created(driver, 2)
    assert path == str(share / ('volume-%s' % volume.id))
    assert volume.provider_location == str(share)
    assert volume.admin_metadata == {'format': 'raw'}
    info = _info(path)
    assert (info['format'], info['virtual-size']) == ('raw', 2 * GiB)
    # Sparse by default: nothing allocated yet.
    assert os.stat(path).st_blocks * 512 < GiB

    driver.extend_volume(volume, 3)
    assert _info(path)['virtual-size'] == 3 * GiB
    assert driver.get_volume_size(volume) == 3 * GiB

    driver.delete_volume(volume)
    assert not os.path.exists(path)
    driver.delete_volume(volume)   # already gone: fine


def test_delete_without_a_recorded_share(driver, share, tmp_path):
    """A create interrupted before it recorded its share: the file goes."""
    volume, path = _created(driver, 1)
    volume.provider_location = None
    driver.delete_volume(volume)
    assert not os.path.exists(path)
    driver.delete_volume(volume)   # nothing anywhere: fine


def test_extend_refuses_to_shrink(driver):
    volume, path = _created(driver, 3)
    with pytest.raises(exception.ExtendFailed) as info:
        driver.extend_volume(volume, 2)
    assert 'shrinking' in str(info.value)
    assert _info(path)['virtual-size'] == 3 * GiB


def test_qcow2_volumes(share):
    drv = remotefs.RemoteFSDriver(_config(share, volume_format='qcow2'),
                                  'host@b')
    drv.do_setup()
    volume, path = _created(drv, 1)
    assert volume.admin_metadata == {'format': 'qcow2'}
    assert _info(path)['format'] == 'qcow2'
    drv.extend_volume(volume, 2)
    assert _info(path)['virtual-size'] == 2 * GiB


def test_preallocated_raw(share):
    drv = remotefs.RemoteFSDriver(_config(share, nfs_sparsed_volumes=False),
                                  'host@b')
    drv.do_setup()
    _volume_, path = _created(drv, 1)
    assert os.stat(path).st_blocks * 512 >= GiB


def test_create_again_keeps_a_whole_file_and_remakes_a_broken_one(driver):
    volume, path = _created(driver, 1)
    with open(path, 'r+b') as f:
        f.write(b'data')
    driver.create_volume(volume)
    with open(path, 'rb') as f:
        assert f.read(4) == b'data'

    # A file of the wrong size (qemu-img interrupted) is made again.
    os.truncate(path, 12345)
    driver.create_volume(volume)
    assert _info(path)['virtual-size'] == 1 * GiB


def test_a_volume_on_a_share_it_does_not_serve(driver, tmp_path):
    volume = _volume(1, provider_location=str(tmp_path / 'elsewhere'))
    with pytest.raises(exception.VolumeBackendAPIException):
        driver.extend_volume(volume, 2)


def test_qemu_img_errors_are_process_failed(tmp_path):
    with pytest.raises(exception.ProcessFailed) as info:
        qemu_img.info(str(tmp_path / 'missing'), 'raw')
    assert not isinstance(info.value, exception.ImageLocked)
    with pytest.raises(exception.InvalidInput):
        qemu_img.create(str(tmp_path / 'x'), 'vmdk', GiB)


def test_a_new_raw_file_is_all_holes_as_qemu_img_makes_it(tmp_path):
    path = str(tmp_path / 'new.raw')
    qemu_img.create(path, 'raw', GiB)
    assert _info(path)['virtual-size'] == GiB
    assert _info(path)['format'] == 'raw'
    assert os.stat(path).st_blocks == 0
    with pytest.raises(exception.ProcessFailed, match='No such file'):
        qemu_img.create(str(tmp_path / 'gone' / 'x.raw'), 'raw', GiB)


def test_a_raw_file_a_guest_holds_is_not_made_again(tmp_path):
    """Made again in place (a re-image's), the file goes through qemu-img,
    which refuses to truncate what a QEMU holds."""
    path = str(tmp_path / 'held.raw')
    qemu_img.create(path, 'raw', GiB)
    with open(path, 'r+b') as f:
        f.write(b'data')
    with qemu_guest.holding(path):
        with pytest.raises(exception.ImageLocked):
            qemu_img.create(path, 'raw', GiB)
    with open(path, 'rb') as f:
        assert f.read(4) == b'data'
    qemu_img.create(path, 'raw', GiB)
    with open(path, 'rb') as f:
        assert f.read(4) == bytes(4)


def test_resize_of_an_image_a_guest_holds_is_image_locked(tmp_path):
    path = str(tmp_path / 'held.raw')
    qemu_img.create(path, 'raw', GiB)
    with qemu_guest.holding(path):
        with pytest.raises(exception.ImageLocked) as info:
            qemu_img.resize(path, 'raw', 2 * GiB)
        assert path in str(info.value)
        # Reading with force-share still works while it is held.
        assert qemu_img.info(path, 'raw',
                             force_share=True).virtual_size == GiB
    # Once the guest is gone the same resize works.
    qemu_img.resize(path, 'raw', 2 * GiB)
    assert _info(path)['virtual-size'] == 2 * GiB


@pytest.mark.parametrize('fmt', ['raw', 'qcow2'])
def test_virtual_size_from_the_header_is_qemu_imgs(tmp_path, fmt):
    path = str(tmp_path / ('v.' + fmt))
    qemu_img.create(path, fmt, GiB)
    with qemu_guest.holding(path, fmt=fmt):
        assert qemu_img.virtual_size(path, fmt) == GiB
    qemu_img.resize(path, fmt, 3 * GiB)
    assert qemu_img.virtual_size(path, fmt) == _info(path)['virtual-size']
    assert qemu_img.virtual_size(path, fmt) == 3 * GiB


def test_virtual_size_of_what_is_no_such_image(tmp_path):
    bogus = tmp_path / 'bogus.qcow2'
    bogus.write_bytes(b'not a qcow2 header' * 10)
    with pytest.raises(exception.ImageUnreadable, match='bogus.qcow2'):
        qemu_img.virtual_size(str(bogus), 'qcow2')
    with pytest.raises(exception.ImageUnreadable, match='missing'):
        qemu_img.virtual_size(str(tmp_path / 'missing'), 'raw')
    with pytest.raises(exception.InvalidInput):
        qemu_img.virtual_size(str(bogus), 'vmdk')


def test_driver_extend_of_a_held_volume_needs_the_hypervisor(driver):
    volume, path = _created(driver, 1)
    with qemu_guest.holding(path):
        # Exactly QEMU's lock makes it the hypervisor's job...
        with pytest.raises(exception.ExtendNeedsHypervisor) as info:
            driver.extend_volume(volume, 2)
        assert volume.id in str(info.value)
        # ... a shrink is refused by the driver itself, held or not.
        with pytest.raises(exception.ExtendFailed,
                           match='shrinking'):
            driver.extend_volume(volume, 0)
    assert _info(path)['virtual-size'] == GiB
    # Any other failure is an error of the driver: qemu-img's...
    os.unlink(path)
    os.mkdir(path)
    with pytest.raises(exception.ProcessFailed) as info:
        driver.extend_volume(volume, 2)
    assert not isinstance(info.value, exception.ExtendNeedsHypervisor)
    assert 'qemu-img resize' in str(info.value)
    # ... or no file to read the size of.
    os.rmdir(path)
    with pytest.raises(exception.ImageUnreadable, match=path):
        driver.extend_volume(volume, 2)


def _image(tmp_path, marker=b'image', size=4 * 1024 ** 2):
    image = tmp_path / 'image.raw'
    with open(image, 'wb') as f:
        f.truncate(size)
        f.write(marker)
    return image


def _guest_bytes(path, fmt):
    out = str(path) + '.raw'
    subprocess.run(['qemu-img', 'convert', '-U', '-f', fmt, '-O', 'raw',
                    str(path), out], check=True, capture_output=True)
    with open(out, 'rb') as f:
        data = f.read()
    os.unlink(out)
    return data


@pytest.mark.parametrize('volume_format', ['raw', 'qcow2'])
def test_an_image_written_not_sparse_leaves_no_old_data(share, tmp_path,
                                                        volume_format):
    """os-reimage's write: nothing of the volume's old data is left,
    neither in the image's holes nor past its end; the file keeps its
    size, format and inode."""
    drv = remotefs.RemoteFSDriver(
        _config(share, volume_format=volume_format), 'host@b')
    drv.do_setup()
    volume, path = _created(drv, 1)
    old = tmp_path / 'old.raw'
    with open(old, 'wb') as f:
        f.truncate(GiB)
        for offset in (4096, 2 * 1024 ** 2, 512 * 1024 ** 2):
            f.seek(offset)
            f.write(b'old secret')
    drv.copy_image_to_volume(volume, str(old), 'raw')
    assert _guest_bytes(path, volume_format).count(b'old secret') == 3
    inode = os.stat(path).st_ino

    drv.copy_image_to_volume(volume, str(_image(tmp_path)), 'raw',
                             sparse=False)

    data = _guest_bytes(path, volume_format)
    assert len(data) == GiB
    assert data.startswith(b'image')
    assert b'old secret' not in data
    assert os.stat(path).st_ino == inode
    assert _info(path)['format'] == volume_format


@pytest.mark.parametrize('image_format', ['raw', 'qcow2'])
def test_copy_volume_to_image(driver, tmp_path, image_format):
    volume, path = _created(driver, 1)
    driver.copy_image_to_volume(volume, str(_image(tmp_path, b'volume')),
                                'raw')
    target = tmp_path / 'upload'
    driver.copy_volume_to_image(volume, str(target), image_format)
    assert _info(target)['format'] == image_format
    assert _guest_bytes(target, image_format) == _guest_bytes(path, 'raw')


def _stream(data, size=1024 ** 2):
    return (data[i:i + size] for i in range(0, len(data), size))


def test_a_raw_image_written_as_it_comes(driver):
    """Zeros skipped (holes stay holes), the rest as it came."""
    volume, path = _created(driver, 1)
    assert driver.can_write_raw_image(volume)
    data = bytearray(4 * 1024 ** 2)
    data[:5] = b'image'
    data[3 * 1024 ** 2:3 * 1024 ** 2 + 6] = b'marker'
    driver.write_raw_image(volume, _stream(bytes(data)))
    with open(path, 'rb') as f:
        assert f.read(len(data)) == bytes(data)
    assert os.stat(path).st_size == GiB
    assert os.stat(path).st_blocks * 512 <= 2 * 1024 ** 2


def test_a_raw_image_written_as_it_comes_not_sparse_leaves_no_old_data(
        driver):
    volume, path = _created(driver, 1)
    with open(path, 'r+b') as f:
        for offset in (4096, 2 * 1024 ** 2, 512 * 1024 ** 2):
            f.seek(offset)
            f.write(b'old secret')
    inode = os.stat(path).st_ino
    data = b'image' + bytes(4 * 1024 ** 2 - 5)
    driver.write_raw_image(volume, _stream(data), sparse=False)
    content = _guest_bytes(path, 'raw')
    assert len(content) == GiB
    assert content.startswith(b'image')
    assert b'old secret' not in content
    assert os.stat(path).st_ino == inode


def test_a_qcow2_volume_is_not_written_as_it_comes(share):
    drv = remotefs.RemoteFSDriver(_config(share, volume_format='qcow2'),
                                  'host@b')
    drv.do_setup()
    volume, _path = _created(drv, 1)
    assert not drv.can_write_raw_image(volume)
