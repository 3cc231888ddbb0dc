"""Backups (/backups) over HTTP: full backups of real data (written with
qemu-io, compared with qemu-img), the files the posix driver writes,
restores into new and existing volumes, quota, microversions (refusals
and races: test_backup_refusals.py, test_backup_races.py).

Nothing is mocked: tether-backup runs in the aio, reads the volume's
file where tether-volume says it is, and writes to [backup] posix_path.
"""

import os

from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh
from tether.api.volume import versions

MiB = bh.MiB


def test_life_cycle_with_openstacksdk(aio, tmp_path):
    conn = aio.sdk()
    volume = conn.block_storage.create_volume(size=1, name='data',
                                              metadata={'k': 'v'})
    volume = conn.block_storage.wait_for_status(volume, 'available',
                                                interval=0.05, wait=30)
    path = aio.volume_path(volume.id)
    bh.write(path, 0, MiB, 0xab)
    bh.write(path, 512 * MiB + 4096, 64 * 1024, 0xcd)
    bh.write(path, helpers.GiB - 4096, 4096, 0xef)
    kept = bh.keep_copy(path, tmp_path, 'at-backup')

    backup = conn.block_storage.create_backup(
        volume_id=volume.id, name='nightly', description='first')
    backup = conn.block_storage.wait_for_status(backup, 'available',
                                                interval=0.05, wait=60)
    assert (backup.name, backup.description, backup.size,
            backup.volume_id, backup.is_incremental,
            backup.has_dependent_backups) == (
        'nightly', 'first', 1, volume.id, False, False)
    # 1 GiB in files of 64 MiB, and the two JSON files.
    assert backup.object_count == 16
    assert backup.container == os.path.join(backup.id[:2], backup.id[2:4],
                                            backup.id)
    files = bh.backup_files(aio, {'container': backup.container})
    assert len(files) == 18
    assert [f for f in files if not f[-1].isdigit()] == sorted(
        [f for f in files if f.endswith(('_metadata', '_sha256file'))])
    # Zeros compress to almost nothing (the SHA-256 of each 32 KiB of
    # the volume, the JSON file incremental backups read, is 2 MiB).
    total = sum(os.path.getsize(os.path.join(aio.backup_dir,
                                             backup.container, f))
                for f in files if f[-1].isdigit())
    assert total < MiB
    assert conn.block_storage.get_volume(volume.id).status == 'available'
    assert bh.usage(conn.test_project) == {
        'volumes': 1, 'gigabytes': 1, 'backups': 1, 'backup_gigabytes': 1}

    # The volume changes; the restore gives back what it held.
    bh.write(path, 0, MiB, 0x11)
    # (openstacksdk reads the answer, {"restore": {"backup_id",
    # "volume_id", "volume_name"}}, into the backup it returns.)
    restored = conn.block_storage.restore_backup(backup, name='restored')
    assert restored.volume_name == 'restored'
    assert restored.volume_id != volume.id
    new = conn.block_storage.wait_for_status(
        conn.block_storage.get_volume(restored.volume_id), 'available',
        interval=0.05, wait=60)
    assert (new.name, new.size, new.metadata) == ('restored', 1,
                                                  {'k': 'v'})
    assert new.description == 'auto-created_from_restore_from_backup'
    assert bh.same_data(aio.volume_path(new.id), kept)
    assert not bh.same_data(path, kept)
    backup = conn.block_storage.get_backup(backup.id)
    assert backup.status == 'available'
    assert bh.usage(conn.test_project) == {
        'volumes': 2, 'gigabytes': 2, 'backups': 1, 'backup_gigabytes': 1}

    conn.block_storage.delete_backup(backup)
    conn.block_storage.wait_for_delete(backup, interval=0.05, wait=30)
    assert not os.path.exists(os.path.join(aio.backup_dir,
                                           backup.container))
    assert bh.usage(conn.test_project) == {
        'volumes': 2, 'gigabytes': 2, 'backups': 0, 'backup_gigabytes': 0}
    for v in (volume, new):
        conn.block_storage.delete_volume(v)


def test_restore_into_an_existing_volume(aio, wait, tmp_path):
    http = aio.http()
    source = helpers.create_volume(http, wait_for=wait, name='src',
                                   metadata={'a': '1'})
    path = aio.volume_path(source['id'])
    bh.write(path, 3 * MiB, 2 * MiB, 0x5a)
    backup = bh.backup(http, source['id'], wait_for=wait)
    # A larger volume full of other data, with other metadata and name.
    target = helpers.create_volume(http, size=2, wait_for=wait,
                                   name='target', metadata={'b': '2'})
    target_path = aio.volume_path(target['id'])
    bh.write(target_path, 0, 8 * MiB, 0x77)
    bh.write(target_path, helpers.GiB + MiB, MiB, 0x66)
    done = bh.restore(http, backup['id'], volume_id=target['id'])
    assert done == {'backup_id': backup['id'], 'volume_id': target['id'],
                    'volume_name': 'target'}
    shown = helpers.wait_until_status(http, target['id'], 'available', wait)
    # Its own name stays; its metadata is the backed-up volume's.
    assert (shown['name'], shown['metadata']) == ('target', {'a': '1'})
    first = bh.keep_copy(target_path, tmp_path, 'first-gib')
    os.truncate(first, helpers.GiB)
    assert bh.same_data(first, path)
    # Past the backup's size, the volume keeps what it had (as Cinder).
    with open(target_path, 'rb') as f:
        f.seek(helpers.GiB + MiB)
        assert f.read(MiB) == b'\x66' * MiB
    assert bh.wait_status(http, backup['id'], 'available', wait)


def test_responses_follow_the_microversion(aio, wait):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    made = bh.backup(http, volume['id'], wait_for=wait, name='v')
    summary = {'id', 'name', 'links'}
    base = summary | {'status', 'size', 'object_count', 'availability_zone',
                      'container', 'created_at', 'updated_at',
                      'description', 'fail_reason', 'volume_id',
                      'is_incremental', 'has_dependent_backups',
                      'snapshot_id', 'data_timestamp'}
    assert set(http.get('/backups').json()['backups'][0]) == summary
    assert set(made) == base
    assert made['links'][0]['href'].endswith(
        '/v3/%s/backups/%s' % (http.project, made['id']))
    latest = aio.http(http.user, http.project,
                      version=versions.MAX_VERSION)
    shown = latest.get('/backups/%s' % made['id']).json()['backup']
    assert set(shown) == base | {'metadata'}
    admin_latest = aio.http('admin', http.project, roles=['admin'],
                            version=versions.MAX_VERSION)
    shown = admin_latest.get('/backups/%s' % made['id']).json()['backup']
    assert shown['os-backup-project-attr:project_id'] == http.project
    assert shown['user_id'] == http.user
    assert 'os-backup-project-attr:project_id' not in admin.get(
        '/backups/%s' % made['id']).json()['backup']
    counted = latest.get('/backups/detail?with_count=true').json()
    assert counted['count'] == 1
    # Update: 404 below 3.9; name, description, and metadata from 3.43.
    path = '/backups/%s' % made['id']
    assert http.put(path, json={'backup': {'name': 'x'}}).status_code == 404
    v39 = aio.http(http.user, http.project, version='3.9')
    assert 'metadata' in bh.error(v39.put(path, json={'backup': {
        'metadata': {'a': 'b'}}}), 400)
    resp = latest.put(path, json={'backup': {
        'name': 'renamed', 'description': 'd', 'metadata': {'a': 'b'}}})
    assert resp.status_code == 200, resp.text
    assert set(resp.json()['backup']) == summary
    shown = latest.get(path).json()['backup']
    assert (shown['name'], shown['description'], shown['metadata']) == (
        'renamed', 'd', {'a': 'b'})
