"""Local root disks made of images, by the libvirt driver: the host's
image cache (real qemu-img, real file locks), guests that boot from them
(real libvirt and QEMU), and what a rebuild of such a server does with
the driver: destroy, then spawn with another image.

The images come from a ``fetch`` of the test's own (a file copy): the
image API and its checks are tests/functional/compute/'s.
"""

import os
import shutil
import threading
import time
import uuid

import pytest

pytest.importorskip('libvirt', reason='libvirt-python is not installed')

from tests.functional import helpers  # noqa: E402
from tests.functional import image_helpers  # noqa: E402
from tests.functional import libvirt_fixture  # noqa: E402
from tests.functional import guest_console  # noqa: E402
from tether.compute import exception  # noqa: E402
from tether.compute import image_exception  # noqa: E402
from tether.drivers import qemu_img  # noqa: E402
from tether.drivers.virt import driver as virt_driver  # noqa: E402
from tether.drivers.virt.libvirt import imagebackend  # noqa: E402

GiB = 1024 ** 3
MiB = 1024 ** 2


@pytest.fixture
def reachable_path():
    """Reachable by QEMU (libvirt-qemu), as a real instances path."""
    path = libvirt_fixture.share_dir('tether-instances-')
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def cache(reachable_path):
    return imagebackend.ImageCache(reachable_path)


class Source:
    """Images of the test: ``fetch`` copies a file and counts."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path
        self.fetches = []

    def image(self, data=None, path=None, disk_format='raw', size_gb=1,
              delay=0):
        if path is None:
            path = self.tmp_path / uuid.uuid4().hex
            path.write_bytes(data)
        image_id = str(uuid.uuid4())

        def fetch(target):
            self.fetches.append(image_id)
            time.sleep(delay)
            shutil.copyfile(path, target)
            return disk_format
        return virt_driver.RootImage(image_id=image_id, size_gb=size_gb,
                                     fetch=fetch)


@pytest.fixture
def source(tmp_path):
    return Source(tmp_path)


def _disk(cache):
    path = os.path.join(cache.instances_path, str(uuid.uuid4()))
    os.makedirs(path)
    return os.path.join(path, 'disk')


# The image cache ------------------------------------------------------------

def test_a_root_disk_is_an_overlay_on_the_cached_raw_image(cache, source,
                                                           tmp_path):
    raw = helpers.disk_bytes(b'cached')
    (tmp_path / 'raw').write_bytes(raw)
    image_helpers.qemu_img('convert', '-f', 'raw', '-O', 'qcow2',
                           str(tmp_path / 'raw'), str(tmp_path / 'qcow2'))
    image = source.image(path=tmp_path / 'qcow2', disk_format='qcow2',
                         size_gb=2)
    disk = _disk(cache)
    assert cache.create_disk(disk, image) == 2 * GiB
    base = cache.path(image.image_id)
    # Made raw (Nova's force_raw_images), readable by QEMU.
    with open(base, 'rb') as f:
        assert f.read() == raw
    assert oct(os.stat(base).st_mode & 0o777) == '0o644'
    info = qemu_img.info(disk, 'qcow2')
    assert (info.virtual_size, info.backing_file) == (2 * GiB, base)
    assert os.listdir(cache.base_dir) == [image.image_id]
    # A second disk of it: no second fetch.
    cache.create_disk(_disk(cache), image)
    assert source.fetches == [image.image_id]


def test_concurrent_disks_of_one_image_fetch_it_once(cache, source):
    image = source.image(helpers.disk_bytes(), delay=0.5)
    disks = [_disk(cache) for _ in range(4)]
    threads = [threading.Thread(target=cache.create_disk, args=(d, image))
               for d in disks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert source.fetches == [image.image_id]
    assert all(qemu_img.info(d, 'qcow2').backing_file ==
               cache.path(image.image_id) for d in disks)


def test_a_size_of_0_takes_the_images(cache, source):
    image = source.image(helpers.disk_bytes(size=8 * MiB), size_gb=0)
    disk = _disk(cache)
    assert cache.create_disk(disk, image) == 8 * MiB
    assert qemu_img.info(disk, 'qcow2').virtual_size == 8 * MiB


def test_an_image_larger_than_the_disk(cache, source, tmp_path):
    image_helpers.qemu_img('create', '-f', 'qcow2', str(tmp_path / 'big'),
                           '2G')
    image = source.image(path=tmp_path / 'big', disk_format='qcow2')
    disk = _disk(cache)
    with pytest.raises(image_exception.RootDiskTooSmall):
        cache.create_disk(disk, image)
    assert not os.path.exists(disk)


@pytest.mark.parametrize('case', ['qcow2-as-raw', 'backing-file'])
def test_unsafe_data_is_refused_and_nothing_stays(cache, source, tmp_path,
                                                  case):
    if case == 'qcow2-as-raw':
        image_helpers.qemu_img('create', '-f', 'qcow2',
                               str(tmp_path / 'data'), '1M')
        image = source.image(path=tmp_path / 'data', disk_format='raw')
    else:
        secret = tmp_path / 'secret'
        secret.write_bytes(b'host secret' * 100)
        image_helpers.qemu_img('create', '-f', 'qcow2', '-b', str(secret),
                               '-F', 'raw', str(tmp_path / 'data'), '1M')
        image = source.image(path=tmp_path / 'data', disk_format='qcow2')
    disk = _disk(cache)
    with pytest.raises(exception.ImageUnsafe):
        cache.create_disk(disk, image)
    assert os.listdir(cache.base_dir) == []
    assert not os.path.exists(disk)


def test_what_a_crashed_download_left_is_not_used(cache, source):
    image = source.image(helpers.disk_bytes(b'whole'))
    os.makedirs(cache.base_dir)
    base = cache.path(image.image_id)
    with open(base + '.part', 'wb') as f:
        f.write(b'half of it')
    cache.create_disk(_disk(cache), image)
    with open(base, 'rb') as f:
        assert f.read() == helpers.disk_bytes(b'whole')
    assert os.listdir(cache.base_dir) == [image.image_id]


def test_unused_images_go_and_used_ones_stay(cache, source):
    used, idle, young = (source.image(helpers.disk_bytes(m))
                         for m in (b'used', b'idle', b'young'))
    for image in (used, idle, young):
        cache.create_disk(_disk(cache), image)
    # Only the disk of ``used`` stays; the others' servers are gone.
    for name in os.listdir(cache.instances_path):
        disk = os.path.join(cache.instances_path, name, 'disk')
        if os.path.exists(disk) and qemu_img.info(
                disk, 'qcow2').backing_file != cache.path(used.image_id):
            shutil.rmtree(os.path.dirname(disk))
    old = time.time() - 3600
    for image in (used, idle):
        os.utime(cache.path(image.image_id), (old, old))

    removed = cache.manage(images_in_use=(), min_age_seconds=600)
    # ``used`` is the backing file of a disk (whatever the database
    # says), ``young`` was used 0 s ago.
    assert removed == [idle.image_id]
    assert sorted(cache.cached()) == sorted([used.image_id,
                                             young.image_id])
    # In use: marked used now.
    assert time.time() - os.stat(cache.path(used.image_id)).st_mtime < 60
    # Images in use by the database's count stay too; without
    # remove_unused nothing goes.
    assert cache.manage(images_in_use=[young.image_id],
                        min_age_seconds=0) == []
    assert cache.manage(images_in_use=(), remove_unused=False,
                        min_age_seconds=0) == []
    assert cache.manage(images_in_use=(), min_age_seconds=0) == [
        young.image_id]


# Guests that boot from their image, and a rebuild ----------------------------

@pytest.fixture
def image_driver(libvirt_ready, reachable_path):
    drv = libvirt_fixture.make_driver(reachable_path)
    drv.init_host()
    return drv


def _wait_up(driver, instance_uuid, marker, timeout=guest_console.TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        text = driver.get_console_output(instance_uuid).decode(
            'utf-8', 'replace')
        lines = [line.strip('\r') for line in text.split('\n')]
        up = [line for line in lines
              if line.startswith('TETHER-GUEST-UP ')]
        if up:
            assert 'marker=%s ' % marker in up[0], up
            return lines
        assert time.monotonic() < deadline, text[-2000:]
        time.sleep(0.25)


def test_a_guest_boots_from_its_image_and_again_from_another(
        image_driver, virt, source, guest_images):
    """What a rebuild of a server from an image asks of the driver:
    destroy, then spawn with the same volumes and another image."""
    data = virt.volume('raw')
    inst = virt.instance(memory_mb=128)
    first = source.image(path=guest_images['tether-tiny-a'])
    second = source.image(path=guest_images['tether-tiny-b'], size_gb=2)

    assert image_driver.spawn(inst, [data], root_image=first) == [
        '/dev/sdb']
    lines = _wait_up(image_driver, inst.uuid, 'tether-tiny-a')
    # Two disks at boot: the guest names them in the order its probes
    # end, so each is found by its serial (the local root has none).
    disks = guest_console.disk_report(lines)
    names = guest_console.by_serial(disks)
    volume_id = data['data']['name'][len('volume-'):]
    assert disks[names['']]['bytes'] == 1 * GiB
    assert disks[names[volume_id]] == {'bytes': 64 * MiB,
                                       'serial': volume_id, 'bus': 'scsi'}
    disk = os.path.join(image_driver.instances_path, inst.uuid, 'disk')
    assert qemu_img.info(disk, 'qcow2', force_share=True).backing_file == \
        image_driver.image_cache.path(first.image_id)

    assert image_driver.destroy(inst.uuid) is True
    assert not os.path.exists(disk)
    assert image_driver.spawn(inst, [data], root_image=second) == [
        '/dev/sdb']
    lines = _wait_up(image_driver, inst.uuid, 'tether-tiny-b')
    disks = guest_console.disk_report(lines)
    names = guest_console.by_serial(disks)
    assert disks[names['']]['bytes'] == 2 * GiB
    assert disks[names[volume_id]]['bytes'] == 64 * MiB
    assert qemu_img.info(disk, 'qcow2', force_share=True).backing_file == \
        image_driver.image_cache.path(second.image_id)
    # The first image stays cached until the image cache manager finds
    # it unused.
    assert image_driver.manage_image_cache([], min_age_seconds=0) == [
        first.image_id]
    image_driver.destroy(inst.uuid)


def test_a_root_image_needs_an_instances_path(virt, libvirt_ready, source):
    plain = libvirt_fixture.make_driver()
    with pytest.raises(exception.VirtError, match='instances_path'):
        plain.spawn(virt.instance(), [],
                    root_image=source.image(helpers.disk_bytes()))
