"""Snapshots of the remotefs driver as qcow2 chains, on a local share with
the real qemu-img: data is written with qemu-io and compared with
``qemu-img compare``."""

import json
import os
import subprocess
import types
import uuid
from unittest import mock

import pytest

from tests import qemu_guest
from tests.unit.volume.test_remotefs import _config, _created, _info
from tether.drivers import qemu_img
from tether.drivers.volume import remotefs
from tether.drivers.volume import remotefs_snapshots
from tether.volume import exception

GiB = 1024 ** 3
MiB = 1024 ** 2


class Crash(Exception):
    """The service dies here (fault injection)."""


@pytest.fixture
def share(tmp_path):
    return tmp_path / 'share'


def _driver(share, **overrides):
    drv = remotefs.RemoteFSDriver(_config(share, **overrides), 'host@b')
    drv.do_setup()
    return drv


@pytest.fixture
def driver(share):
    return _driver(share)


def _snapshot(volume):
    return types.SimpleNamespace(id=str(uuid.uuid4()), volume_id=volume.id,
                                 volume_size=volume.size)


def _write(driver, volume, pattern, offset=0, length=MiB):
    subprocess.run(['qemu-io', '-f', driver.volume_format(volume), '-c',
                    'write -P %d %d %d' % (pattern, offset, length),
                    driver.local_path(volume)],
                   check=True, capture_output=True)


def _snapshot_data(driver, volume, snapshot):
    """(path, format) of what the snapshot keeps: its overlay's backing,
    as the driver says it is."""
    info = driver.read_snap_info(volume)
    overlay = os.path.join(driver.volume_dir(volume), info[snapshot.id])
    backing = _info(overlay)['backing-filename']
    fmt = _info(os.path.join(driver.volume_dir(volume), backing))['format']
    found = (os.path.join(driver.volume_dir(volume), backing), fmt)
    assert driver.snapshot_data(volume, snapshot) == found
    return found


def _save(path, fmt, target):
    """A raw copy of what ``path`` reads (its chain)."""
    subprocess.run(['qemu-img', 'convert', '-f', fmt, '-O', 'raw', path,
                    str(target)], check=True, capture_output=True)
    return str(target)


def _same(path, fmt, saved):
    """Whether ``path`` reads as the raw file ``saved``."""
    return subprocess.run(['qemu-img', 'compare', '-f', fmt, '-F', 'raw',
                           path, saved], capture_output=True).returncode == 0


def _files(share):
    return sorted(os.listdir(share))


def test_a_snapshot_keeps_the_data_written_before_it(driver, share,
                                                     tmp_path):
    volume, base = _created(driver, 1)
    _write(driver, volume, 0x11)
    before = _save(base, 'raw', tmp_path / 'before')
    snap = _snapshot(volume)
    driver.create_snapshot(volume, snap)

    name = volume.name_on_disk
    overlay = '%s.%s' % (name, snap.id)
    assert _files(share) == sorted([name, overlay, name + '.info'])
    with open(share / (name + '.info')) as f:
        assert json.load(f) == {'active': overlay, snap.id: overlay}
    info = _info(share / overlay)
    assert info['format'] == 'qcow2'
    assert info['virtual-size'] == GiB
    # Named relative to the share, its format given: never probed.
    assert info['backing-filename'] == name
    assert info['backing-filename-format'] == 'raw'
    assert os.stat(share / overlay).st_mode == os.stat(base).st_mode
    assert driver.local_path(volume) == str(share / overlay)
    assert driver.volume_format(volume) == 'qcow2'
    assert volume.admin_metadata == {'format': 'raw'}   # the base's

    _write(driver, volume, 0x22)
    after = _save(driver.local_path(volume), 'qcow2', tmp_path / 'after')
    assert _same(*_snapshot_data(driver, volume, snap), before)
    assert not _same(*_snapshot_data(driver, volume, snap), after)
    assert _same(driver.local_path(volume), 'qcow2', after)
    assert driver.get_volume_size(volume) == GiB


def test_the_connection_names_the_active_file(driver, share):
    volume, _path = _created(driver, 1)
    connector = {'mode': 'rw'}
    assert driver.initialize_connection(volume, connector)['data'][
        'name'] == volume.name_on_disk
    snap = _snapshot(volume)
    driver.create_snapshot(volume, snap)
    data = driver.initialize_connection(volume, connector)['data']
    assert data['name'] == '%s.%s' % (volume.name_on_disk, snap.id)
    assert data['format'] == 'qcow2'
    assert data['export'] == str(share)
    driver.delete_snapshot(volume, snap)
    data = driver.initialize_connection(volume, connector)['data']
    assert (data['name'], data['format']) == (volume.name_on_disk, 'raw')


def _three(driver, volume, tmp_path):
    """Three snapshots, each after data of its own: (snapshots, the raw
    copy of each snapshot's data, of the volume's data at the end)."""
    snaps, saved = [], {}
    for i in range(3):
        _write(driver, volume, 0x10 + i)
        _write(driver, volume, 0x20 + i, offset=(i + 1) * 8 * MiB)
        snap = _snapshot(volume)
        driver.create_snapshot(volume, snap)
        snaps.append(snap)
        saved[snap.id] = _save(*_snapshot_data(driver, volume, snap),
                               tmp_path / snap.id)
    _write(driver, volume, 0x33, offset=4 * MiB)
    now = _save(driver.local_path(volume), 'qcow2', tmp_path / 'now')
    return snaps, saved, now


def _intact(driver, volume, snaps, saved, now):
    for snap in snaps:
        assert _same(*_snapshot_data(driver, volume, snap), saved[snap.id])
    assert _same(driver.local_path(volume), driver.volume_format(volume),
                 now)


@pytest.mark.parametrize('order', [(2, 1, 0), (1, 0, 2), (0, 2, 1)],
                         ids=['newest-first', 'middle-first',
                              'oldest-first'])
def test_delete_each_of_three_keeps_the_others(driver, share, tmp_path,
                                               order):
    volume, _path = _created(driver, 1)
    snaps, saved, now = _three(driver, volume, tmp_path)
    left = list(snaps)
    for index in order:
        driver.delete_snapshot(volume, snaps[index])
        left.remove(snaps[index])
        assert not (share / ('%s.%s' % (volume.name_on_disk,
                                        snaps[index].id))).exists()
        info = driver.read_snap_info(volume)
        assert set(info) - {'active'} == {s.id for s in left}
        _intact(driver, volume, left, saved, now)
    assert _files(share) == [volume.name_on_disk]
    assert driver.volume_format(volume) == 'raw'
    driver.delete_snapshot(volume, snaps[0])   # already gone: fine


def test_a_snapshot_of_a_qcow2_volume(share, tmp_path):
    driver = _driver(share, volume_format='qcow2')
    volume, base = _created(driver, 1)
    assert volume.admin_metadata == {'format': 'qcow2'}
    snaps, saved, now = _three(driver, volume, tmp_path)
    overlay = driver.read_snap_info(volume)[snaps[0].id]
    assert _info(share / overlay)['backing-filename-format'] == 'qcow2'
    driver.delete_snapshot(volume, snaps[0])
    _intact(driver, volume, snaps[1:], saved, now)
    driver.delete_snapshot(volume, snaps[2])
    driver.delete_snapshot(volume, snaps[1])
    assert _files(share) == [volume.name_on_disk]
    assert _info(base).get('backing-filename') is None
    assert _same(base, 'qcow2', now)


def test_extend_grows_the_active_file(driver, share, tmp_path):
    volume, base = _created(driver, 1)
    _write(driver, volume, 0x11)
    snap = _snapshot(volume)
    driver.create_snapshot(volume, snap)
    driver.extend_volume(volume, 2)
    volume.size = 2
    assert _info(driver.local_path(volume))['virtual-size'] == 2 * GiB
    assert _info(base)['virtual-size'] == GiB   # the snapshot's data
    assert driver.get_volume_size(volume) == 2 * GiB
    _write(driver, volume, 0x22, offset=GiB + 512 * MiB)
    now = _save(driver.local_path(volume), 'qcow2', tmp_path / 'now')
    # A snapshot after the extend has the new size.
    later = _snapshot(volume)
    driver.create_snapshot(volume, later)
    assert _info(driver.local_path(volume))['virtual-size'] == 2 * GiB
    # Committed into the smaller base, which grows.
    driver.delete_snapshot(volume, later)
    driver.delete_snapshot(volume, snap)
    assert _info(base)['virtual-size'] == 2 * GiB
    assert _same(base, 'raw', now)


@pytest.mark.parametrize('image_format', ['raw', 'qcow2'])
def test_upload_exports_the_whole_chain(driver, tmp_path, image_format):
    volume, _path = _created(driver, 1)
    snaps, _saved, now = _three(driver, volume, tmp_path)
    image = tmp_path / ('image.' + image_format)
    driver.copy_volume_to_image(volume, str(image), image_format)
    info = _info(image)
    assert info['format'] == image_format
    assert 'backing-filename' not in info
    assert _same(str(image), image_format, now)


def test_delete_volume_removes_every_file_of_the_chain(driver, share,
                                                       tmp_path):
    volume, _path = _created(driver, 1)
    other, _other_path = _created(driver, 1)
    _three(driver, volume, tmp_path)
    # What an interrupted info write leaves.
    (share / (volume.name_on_disk + '.info.tmp')).write_text('{')
    driver.delete_volume(volume)
    assert _files(share) == [other.name_on_disk]
    driver.delete_volume(volume)   # already gone: fine


def test_delete_volume_without_a_recorded_share(driver, share, tmp_path):
    volume, _path = _created(driver, 1)
    driver.create_snapshot(volume, _snapshot(volume))
    volume.provider_location = None
    driver.delete_volume(volume)
    assert _files(share) == []


def test_no_image_is_written_over_a_chain(driver, tmp_path):
    volume, _path = _created(driver, 1)
    _write(driver, volume, 0x11)
    driver.create_snapshot(volume, _snapshot(volume))
    now = _save(driver.local_path(volume), 'qcow2', tmp_path / 'now')
    image = tmp_path / 'image'
    image.write_bytes(b'\x42' * MiB)
    assert not driver.can_write_raw_image(volume)
    with pytest.raises(exception.RemoteFSVolumeHasSnapshots):
        driver.copy_image_to_volume(volume, str(image), 'raw', sparse=False)
    with pytest.raises(exception.RemoteFSVolumeHasSnapshots):
        driver.write_raw_image(volume, [b'\x42' * MiB])
    assert _same(driver.local_path(volume), 'qcow2', now)


def test_create_again_is_the_same_snapshot(driver, share):
    volume, _path = _created(driver, 1)
    snap = _snapshot(volume)
    driver.create_snapshot(volume, snap)
    overlay = share / ('%s.%s' % (volume.name_on_disk, snap.id))
    inode = os.stat(overlay).st_ino
    info = driver.read_snap_info(volume)
    driver.create_snapshot(volume, snap)
    assert driver.read_snap_info(volume) == info
    assert os.stat(overlay).st_ino == inode


def test_a_create_interrupted_before_the_info_file_is_made_again(
        driver, share, tmp_path):
    volume, _path = _created(driver, 1)
    first = _snapshot(volume)
    driver.create_snapshot(volume, first)
    _write(driver, volume, 0x11)
    now = _save(driver.local_path(volume), 'qcow2', tmp_path / 'now')
    snap = _snapshot(volume)
    # Fault injection: the service dies before the info file names the
    # new overlay.
    with mock.patch.object(remotefs.RemoteFSDriver, '_write_snap_info',
                           autospec=True, side_effect=Crash):
        with pytest.raises(Crash):
            driver.create_snapshot(volume, snap)
    assert snap.id not in driver.read_snap_info(volume)
    driver.create_snapshot(volume, snap)
    info = driver.read_snap_info(volume)
    assert info['active'] == info[snap.id]
    assert _same(*_snapshot_data(driver, volume, snap), now)
    # Or it is deleted instead: its overlay goes.
    other = _snapshot(volume)
    with mock.patch.object(remotefs.RemoteFSDriver, '_write_snap_info',
                           autospec=True, side_effect=Crash):
        with pytest.raises(Crash):
            driver.create_snapshot(volume, other)
    driver.delete_snapshot(volume, other)
    assert '%s.%s' % (volume.name_on_disk, other.id) not in _files(share)
    assert driver.read_snap_info(volume) == info


# Where a delete may be interrupted: after the commit (before the rebase),
# after the rebase (before the info file), after the info file (before
# the overlay is removed).
STEPS = {
    'after-commit': (qemu_img, 'rebase_unsafe'),
    'after-rebase': (remotefs.RemoteFSDriver, '_write_snap_info'),
    'after-info': (remotefs_snapshots, '_unlink'),
}


@pytest.mark.parametrize('step', sorted(STEPS))
@pytest.mark.parametrize('which', [0, 1, 2], ids=['oldest', 'middle',
                                                  'newest'])
def test_a_delete_interrupted_is_finished_by_the_next(driver, share,
                                                      tmp_path, step, which):
    volume, _path = _created(driver, 1)
    snaps, saved, now = _three(driver, volume, tmp_path)
    target, obj = snaps[which], STEPS[step]
    # Fault injection: the service dies at that step (the newest's
    # overlay is active: nothing is rebased, the crash comes later).
    with mock.patch.object(*obj, autospec=True, side_effect=Crash):
        try:
            driver.delete_snapshot(volume, target)
        except Crash:
            pass
    left = [s for s in snaps if s is not target]
    driver.delete_snapshot(volume, target)
    assert _files(share) == sorted(
        [volume.name_on_disk, volume.name_on_disk + '.info'] +
        ['%s.%s' % (volume.name_on_disk, s.id) for s in left])
    assert set(driver.read_snap_info(volume)) - {'active'} == {
        s.id for s in left}
    _intact(driver, volume, left, saved, now)


def test_a_chain_that_is_not_as_the_info_file_says(driver, share):
    volume, _path = _created(driver, 1)
    snap = _snapshot(volume)
    driver.create_snapshot(volume, snap)
    os.unlink(driver.local_path(volume))
    with pytest.raises(exception.RemoteFSSnapshotChainBroken):
        driver.delete_snapshot(volume, snap)
    with pytest.raises(exception.RemoteFSSnapshotChainBroken):
        driver.create_snapshot(volume, _snapshot(volume))


def test_an_overlay_backed_by_a_file_not_the_volumes(driver, share,
                                                     tmp_path):
    volume, _path = _created(driver, 1)
    snap = _snapshot(volume)
    driver.create_snapshot(volume, snap)
    stranger = tmp_path / 'stranger'
    stranger.write_bytes(bytes(MiB))
    qemu_img.rebase_unsafe(driver.local_path(volume), str(stranger), 'raw')
    with pytest.raises(exception.RemoteFSSnapshotChainBroken) as info:
        driver.delete_snapshot(volume, snap)
    assert 'stranger' in str(info.value)
    assert stranger.exists()


def test_qemu_opens_the_chain_from_the_active_file(driver, tmp_path):
    """A guest's QEMU given the active file, as the connection info names
    it, finds the files below in its header; an extend is then its job,
    and a forced upload reads the chain."""
    volume, _path = _created(driver, 1)
    snaps, saved, now = _three(driver, volume, tmp_path)
    info = driver.read_snap_info(volume)
    with qemu_guest.holding(driver.local_path(volume), 'qcow2'):
        with pytest.raises(exception.ExtendNeedsHypervisor):
            driver.extend_volume(volume, 2)
        # Snapshots are offline: refused, nothing changed.
        for call, snap in ((driver.create_snapshot, _snapshot(volume)),
                           (driver.delete_snapshot, snaps[1])):
            with pytest.raises(exception.VolumeBackendAPIException,
                               match='in use by a hypervisor'):
                call(volume, snap)
            assert driver.read_snap_info(volume) == info
        image = tmp_path / 'image'
        driver.copy_volume_to_image(volume, str(image), 'raw',
                                    force_share=True)
    assert _same(str(image), 'raw', now)
    _intact(driver, volume, snaps, saved, now)


def test_a_raw_volume_a_guest_writes_is_not_snapshotted_offline(driver):
    """The offline take refuses a volume whose file a guest's QEMU
    holds for writing, raw as well as qcow2: qemu-img info of a raw
    file succeeds under a writer, so it cannot be the test."""
    volume, path = _created(driver, 1)
    assert driver.volume_format(volume) == 'raw'
    before = sorted(os.listdir(driver.volume_dir(volume)))
    with qemu_guest.holding(path):
        with pytest.raises(exception.VolumeBackendAPIException,
                           match='in use by a hypervisor'):
            driver.create_snapshot(volume, _snapshot(volume))
    assert sorted(os.listdir(driver.volume_dir(volume))) == before
