"""The remotefs driver's part of assisted snapshots (snapshots of attached
volumes), on a local share with the real qemu-img.

The compute host's part is done here with qemu-img as a stopped guest's
host does it (tether.drivers.virt.libvirt.driver_volume_snapshots, whose
live part is tested under libvirt in tests/functional/virt/): switch =
nothing to do on the files, pull = a safe rebase of the active file,
commit = commit, then the file above is rebased unsafely. What every
snapshot and the volume read is compared before and after.
"""

import os

import pytest

from tests import qemu_guest
from tests.unit.volume.test_remotefs import _created
from tests.unit.volume.test_remotefs_snapshots import _driver
from tests.unit.volume.test_remotefs_snapshots import _save
from tests.unit.volume.test_remotefs_snapshots import _same
from tests.unit.volume.test_remotefs_snapshots import _snapshot
from tests.unit.volume.test_remotefs_snapshots import _write
from tether.drivers import qemu_img
from tether.volume import exception


@pytest.fixture
def share(tmp_path):
    return tmp_path / 'share'


@pytest.fixture
def driver(share):
    return _driver(share)


def _take(driver, volume):
    """A snapshot taken as with a guest's host: prepare, (switch), finish."""
    snap = _snapshot(volume)
    create_info = driver.prepare_assisted_snapshot(volume, snap)
    driver.finish_assisted_snapshot(volume, snap, create_info)
    return snap


def _merge(share, delete_info, chain):
    """What the compute host does with ``delete_info`` (``chain``: the
    file names from the active one down)."""
    active = str(share / chain[0])
    target = delete_info['merge_target_file']
    merge = delete_info['file_to_merge']
    if target is None:
        below = merge
        fmt = None if below is None else qemu_img.info(
            str(share / below), force_share=True).file_format
        qemu_img.rebase(active, below, fmt)
        return
    index = chain.index(merge)
    qemu_img.commit(str(share / merge))
    qemu_img.rebase_unsafe(str(share / chain[index - 1]), target,
                           qemu_img.info(str(share / target)).file_format)


def _delete(driver, share, volume, snap):
    plan, merged = driver.prepare_assisted_snapshot_delete(volume, snap)
    assert not merged
    _merge(share, plan['delete_info'],
           driver._chain(volume, driver.read_snap_info(volume)))
    driver.finish_assisted_snapshot_delete(volume, snap, plan)
    return plan


def _saved(driver, volume, snaps, tmp_path, label):
    """Raw copies of what each snapshot and the volume read now."""
    out = {'volume': _save(driver.local_path(volume),
                           driver.volume_format(volume),
                           tmp_path / ('%s-volume' % label))}
    for index, snap in enumerate(snaps):
        out[snap.id] = _save(*driver.snapshot_data(volume, snap),
                             tmp_path / ('%s-%d' % (label, index)))
    return out


def _reads(driver, volume, snaps, saved):
    assert _same(driver.local_path(volume), driver.volume_format(volume),
                 saved['volume'])
    for snap in snaps:
        assert _same(*driver.snapshot_data(volume, snap), saved[snap.id])


def test_take_makes_an_overlay_and_records_it_once_switched(driver, share):
    volume, base = _created(driver, 1)
    name = volume.name_on_disk
    snap = _snapshot(volume)
    create_info = driver.prepare_assisted_snapshot(volume, snap)
    overlay = '%s.%s' % (name, snap.id)
    assert create_info == {'snapshot_id': snap.id, 'type': 'qcow2',
                           'new_file': overlay}
    assert qemu_img.info(str(share / overlay)).backing_file == name
    assert os.stat(share / overlay).st_mode == os.stat(base).st_mode
    # Not recorded before the host switched; asked again, the same file
    # (a guest may write it already: it is kept).
    assert driver.read_snap_info(volume) == {}
    with open(share / overlay, 'ab') as f:
        f.write(b'')
    inode = os.stat(share / overlay).st_ino
    assert driver.prepare_assisted_snapshot(volume, snap) == create_info
    assert os.stat(share / overlay).st_ino == inode
    driver.finish_assisted_snapshot(volume, snap, create_info)
    assert driver.read_snap_info(volume) == {'active': overlay,
                                             snap.id: overlay}
    assert driver.prepare_assisted_snapshot(volume, snap) is None


def test_an_abandoned_take_leaves_nothing(driver, share):
    volume, _base = _created(driver, 1)
    snap = _snapshot(volume)
    create_info = driver.prepare_assisted_snapshot(volume, snap)
    driver.abandon_assisted_snapshot(volume, snap, create_info)
    assert sorted(os.listdir(share)) == [volume.name_on_disk]
    assert driver.read_snap_info(volume) == {}


def test_an_abandoned_take_keeps_an_overlay_a_guest_writes(driver, share):
    """The compute host said it did not switch the guest, yet a guest's
    QEMU writes the overlay: it stays (deleting it would lose what the
    guest writes); a read-only holder does not keep it."""
    volume, _base = _created(driver, 1)
    snap = _snapshot(volume)
    create_info = driver.prepare_assisted_snapshot(volume, snap)
    overlay = share / create_info['new_file']
    with qemu_guest.holding(str(overlay), fmt='qcow2', read_only=True):
        assert not driver._is_written_by_guest(volume, overlay.name)
    with qemu_guest.holding(str(overlay), fmt='qcow2'):
        driver.abandon_assisted_snapshot(volume, snap, create_info)
        assert overlay.exists()
    driver.abandon_assisted_snapshot(volume, snap, create_info)
    assert not overlay.exists()


def test_an_overlay_on_another_file_is_not_taken_again(driver, share):
    volume, _base = _created(driver, 1)
    first = _take(driver, volume)
    snap = _snapshot(volume)
    # An overlay of that name on the base file: the active file changed
    # since it was made.
    qemu_img.create_overlay(
        str(share / ('%s.%s' % (volume.name_on_disk, snap.id))),
        volume.name_on_disk, 'raw', 1024 ** 3)
    with pytest.raises(exception.RemoteFSSnapshotChainBroken,
                       match='not on the active file'):
        driver.prepare_assisted_snapshot(volume, snap)
    assert first.id in driver.read_snap_info(volume)


def test_deletes_commit_and_pull_and_keep_every_other_snapshot(
        driver, share, tmp_path):
    volume, _base = _created(driver, 1)
    name = volume.name_on_disk
    snaps = []
    for pattern in (0x11, 0x22, 0x33):
        _write(driver, volume, pattern)
        snaps.append(_take(driver, volume))
    _write(driver, volume, 0x44)
    s1, s2, s3 = snaps
    saved = _saved(driver, volume, snaps, tmp_path, 'start')

    # s2's overlay is a backing file: committed into s1's, and gone.
    plan = _delete(driver, share, volume, s2)
    assert plan['kind'] == 'commit'
    assert plan['delete_info'] == {
        'type': 'qcow2', 'volume_id': volume.id,
        'file_to_merge': '%s.%s' % (name, s2.id),
        'merge_target_file': '%s.%s' % (name, s1.id)}
    _reads(driver, volume, [s1, s3], saved)
    assert s2.id not in driver.read_snap_info(volume)
    assert not (share / ('%s.%s' % (name, s2.id))).exists()

    # s3's overlay is the active file: s1's overlay, its backing file, is
    # pulled into it, and s1 has the active file for its overlay now.
    plan = _delete(driver, share, volume, s3)
    assert plan['kind'] == 'pull'
    assert plan['delete_info']['file_to_merge'] == name
    assert plan['delete_info']['merge_target_file'] is None
    assert driver.read_snap_info(volume) == {
        'active': '%s.%s' % (name, s3.id), s1.id: '%s.%s' % (name, s3.id)}
    _reads(driver, volume, [s1], saved)

    # The last one: the base file is pulled in; the active file stands
    # alone, and the info file still names it.
    plan = _delete(driver, share, volume, s1)
    assert plan['delete_info']['file_to_merge'] is None
    assert sorted(os.listdir(share)) == sorted(
        ['%s.%s' % (name, s3.id), name + '.info'])
    assert driver.read_snap_info(volume) == {
        'active': '%s.%s' % (name, s3.id)}
    assert qemu_img.info(driver.local_path(volume)).backing_file is None
    _reads(driver, volume, [], saved)
    # The volume lives on: a new snapshot (offline, too), its delete.
    again = _snapshot(volume)
    driver.create_snapshot(volume, again)
    driver.delete_snapshot(volume, again)
    _reads(driver, volume, [], saved)


def test_a_delete_taken_up_after_the_merge_only_finishes(
        driver, share, tmp_path):
    volume, _base = _created(driver, 1)
    snaps = [_take(driver, volume) for _ in range(2)]
    _write(driver, volume, 0x55)
    saved = _saved(driver, volume, snaps, tmp_path, 'start')
    s1, s2 = snaps
    plan, merged = driver.prepare_assisted_snapshot_delete(volume, s2)
    assert not merged
    _merge(share, plan['delete_info'],
           driver._chain(volume, driver.read_snap_info(volume)))
    # The service stops here; another snapshot is taken meanwhile.
    s3 = _take(driver, volume)
    # Taken up again: the plan is read, the merge is not asked again.
    again, merged = driver.prepare_assisted_snapshot_delete(volume, s2)
    assert merged and again == plan
    driver.finish_assisted_snapshot_delete(volume, s2, again)
    info = driver.read_snap_info(volume)
    assert s2.id not in info and s1.id in info and s3.id in info
    _reads(driver, volume, [s1], saved)
    assert not [n for n in os.listdir(share) if n.endswith('.merge')]
    assert driver.prepare_assisted_snapshot_delete(volume, s2) is None


def test_a_delete_not_merged_is_planned_again(driver, share, tmp_path):
    volume, _base = _created(driver, 1)
    s1 = _take(driver, volume)
    plan, _ = driver.prepare_assisted_snapshot_delete(volume, s1)
    assert plan['kind'] == 'pull'
    # The host refused; a snapshot is taken; the delete is asked again:
    # s1's overlay is a backing file now, committed rather than pulled.
    s2 = _take(driver, volume)
    saved = _saved(driver, volume, [s2], tmp_path, 'start')
    again = _delete(driver, share, volume, s1)
    assert again['kind'] == 'commit'
    _reads(driver, volume, [s2], saved)
