"""The posix backup driver on a temporary directory: full and incremental
backups of raw data, restores of a chain, the files it writes (Cinder's
format), what it refuses and what it finds damaged."""

import hashlib
import io
import json
import os
import types

import pytest

from tether.drivers.volume.backup import data
from tether.drivers.volume.backup import driver
from tether.drivers.volume.backup import posix
from tether.volume import backup_exception

BLOCK = 4096
FILE = 4 * BLOCK


def _driver(root, compression='zlib', file_size=FILE, block=BLOCK,
            container=None):
    return posix.PosixBackupDriver(types.SimpleNamespace(
        file_size=file_size, sha_block_size=block,
        compression_algorithm=compression, posix_path=str(root),
        container=container))


def _ref(d, backup_id, parent=None, volume='vol-1'):
    ref = driver.BackupRef(id=backup_id, volume_id=volume,
                           parent_id=parent.id if parent else None,
                           name='b', created_at='2026-01-01 00:00:00')
    container, prefix = d.prepare(ref)
    return driver.BackupRef(id=ref.id, volume_id=volume,
                            container=container, prefix=prefix,
                            parent_id=ref.parent_id, name='b',
                            created_at=ref.created_at)


def _volume(size=10 * BLOCK + 100):
    data = bytearray(size)
    data[BLOCK:BLOCK + 10] = b'0123456789'
    data[7 * BLOCK:8 * BLOCK] = os.urandom(BLOCK)
    return data


def _restored(d, chain, size, start=None):
    target = io.BytesIO(bytes(start) if start is not None else bytes(size))
    meta = d.restore(chain, target)
    return target.getvalue(), meta


def test_a_full_backup_restores_the_same_bytes(tmp_path):
    d = _driver(tmp_path)
    data = _volume()
    ref = _ref(d, 'aaaabbbb-full')
    count = d.backup(ref, io.BytesIO(bytes(data)), volume_meta='{"m": 1}')
    # 10 blocks and 100 bytes in files of 4 blocks: 3 files.
    assert count == 3
    assert ref.container == os.path.join('aa', 'aa', 'aaaabbbb-full')
    names = sorted(os.listdir(tmp_path / ref.container))
    assert names == [ref.prefix + '-00001', ref.prefix + '-00002',
                     ref.prefix + '-00003', ref.prefix + '_metadata',
                     ref.prefix + '_sha256file']
    with open(tmp_path / ref.container / (ref.prefix + '_metadata')) as f:
        metadata = json.load(f)
    assert metadata['version'] == '1.0.0'
    assert metadata['volume_meta'] == '{"m": 1}'
    first = metadata['objects'][0][ref.prefix + '-00001']
    assert (first['offset'], first['length'], first['compression']) == (
        0, FILE, 'zlib')
    assert first['md5'] == hashlib.md5(bytes(data[:FILE])).hexdigest()
    restored, meta = _restored(d, [ref], len(data))
    assert restored == bytes(data)
    assert meta == '{"m": 1}'


def test_an_incremental_backup_stores_only_changed_blocks(tmp_path):
    d = _driver(tmp_path)
    data = _volume()
    full = _ref(d, 'full-1')
    d.backup(full, io.BytesIO(bytes(data)))
    data[2 * BLOCK + 5] = 0xff            # block 2 (file 1)
    data[3 * BLOCK:3 * BLOCK + 3] = b'abc'  # block 3 (file 1): one run
    data[9 * BLOCK:9 * BLOCK + 1] = b'z'    # block 9 (file 3)
    inc = _ref(d, 'inc-1', parent=full)
    count = d.backup(inc, io.BytesIO(bytes(data)), parent=full)
    assert count == 2
    with open(tmp_path / inc.container / (inc.prefix + '_metadata')) as f:
        objects = json.load(f)['objects']
    extents = [(o['offset'], o['length'])
               for item in objects for o in item.values()]
    assert extents == [(2 * BLOCK, 2 * BLOCK), (9 * BLOCK, BLOCK)]
    restored, _ = _restored(d, [full, inc], len(data))
    assert restored == bytes(data)
    # A later change back to zeros is written as zeros over the data
    # the full backup had there.
    data[7 * BLOCK:8 * BLOCK] = bytes(BLOCK)
    inc2 = _ref(d, 'inc-2', parent=inc)
    d.backup(inc2, io.BytesIO(bytes(data)), parent=inc)
    restored, _ = _restored(d, [full, inc, inc2], len(data),
                            start=os.urandom(len(data)))
    assert restored == bytes(data)


def test_a_restore_over_old_data_leaves_none_of_it(tmp_path):
    d = _driver(tmp_path, compression='none')
    data = _volume()
    ref = _ref(d, 'full-2')
    d.backup(ref, io.BytesIO(bytes(data)))
    restored, _ = _restored(d, [ref], len(data),
                            start=os.urandom(len(data)))
    assert restored == bytes(data)


def test_zeros_are_compressed_once_and_stay_holes_when_restored(tmp_path):
    d = _driver(tmp_path, compression='bz2')
    ref = _ref(d, 'zeros-1')
    d.backup(ref, io.BytesIO(bytes(3 * FILE)))
    assert len(d._zero_pieces) == 1
    target = tmp_path / 'target'
    with open(target, 'wb') as f:
        f.truncate(3 * FILE)
    with open(target, 'r+b') as f:
        d.restore([ref], f)
    assert os.stat(target).st_blocks == 0


def test_a_run_again_replaces_what_an_interrupted_run_wrote(tmp_path):
    d = _driver(tmp_path)
    data = _volume()
    ref = _ref(d, 'again-1')
    calls = []

    def stop_after_two():
        calls.append(1)
        if len(calls) == 3:
            raise backup_exception.BackupInterrupted(backup_id=ref.id,
                                                     reason='test')
    with pytest.raises(backup_exception.BackupInterrupted):
        d.backup(ref, io.BytesIO(bytes(data)), keep_going=stop_after_two)
    assert len(os.listdir(tmp_path / ref.container)) == 2
    with pytest.raises(backup_exception.BackupDriverError):
        d.verify(ref)
    d.backup(ref, io.BytesIO(bytes(data)))
    d.verify(ref)
    assert _restored(d, [ref], len(data))[0] == bytes(data)


def test_delete_removes_the_files_and_the_directories(tmp_path):
    d = _driver(tmp_path)
    ref = _ref(d, 'deleted-1')
    d.backup(ref, io.BytesIO(bytes(_volume())))
    d.delete(ref)
    assert os.listdir(tmp_path) == []
    d.delete(ref)


def test_a_shared_container_keeps_the_other_backups(tmp_path):
    d = _driver(tmp_path, container='nightly')
    one, two = _ref(d, 'one-1'), _ref(d, 'two-1', volume='vol-2')
    assert one.container == two.container == 'nightly'
    for ref in (one, two):
        d.backup(ref, io.BytesIO(bytes(_volume())))
    d.delete(one)
    d.verify(two)
    assert all(n.startswith(two.prefix)
               for n in os.listdir(tmp_path / 'nightly'))


@pytest.mark.parametrize('container', ['/etc', '../x', 'a/../../x', '.'])
def test_a_container_outside_the_root_is_refused(tmp_path, container):
    d = _driver(tmp_path / 'root')
    with pytest.raises(backup_exception.BackupDriverError):
        d.prepare(driver.BackupRef(id='x-1', volume_id='v',
                                   container=container))


def test_damage_is_found(tmp_path):
    d = _driver(tmp_path)
    ref = _ref(d, 'damaged-1')
    d.backup(ref, io.BytesIO(bytes(_volume())))
    path = tmp_path / ref.container / (ref.prefix + '-00002')
    path.write_bytes(b'garbage')
    with pytest.raises(backup_exception.BackupDriverError) as info:
        _restored(d, [ref], 11 * BLOCK)
    assert 'is damaged' in str(info.value)
    path.unlink()
    with pytest.raises(backup_exception.BackupDriverError) as info:
        d.verify(ref)
    assert 'not those its metadata lists' in str(info.value)


def test_an_incremental_on_another_block_size_is_refused(tmp_path):
    old = _driver(tmp_path, block=BLOCK)
    full = _ref(old, 'full-3')
    old.backup(full, io.BytesIO(bytes(_volume())))
    new = _driver(tmp_path, block=2 * BLOCK)
    with pytest.raises(backup_exception.InvalidBackup):
        new.backup(_ref(new, 'inc-3', parent=full),
                   io.BytesIO(bytes(_volume())), parent=full)


def test_a_file_size_not_a_multiple_of_the_block_is_refused(tmp_path):
    with pytest.raises(backup_exception.BackupDriverError):
        _driver(tmp_path, file_size=FILE + 1)


def test_changed_extents():
    assert data.changed_extents(['a', 'b', 'c', 'd'],
                                ['a', 'x', 'y', 'd', 'e'], 0, 10,
                                40) == [(10, 30)]
    # Beyond what the parent had: changed; the last run ends with the
    # piece.
    assert data.changed_extents(['a', 'b'], ['q', 'a'], 1, 10,
                                15) == [(10, 15)]
