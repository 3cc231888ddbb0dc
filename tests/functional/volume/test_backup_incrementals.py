"""Incremental backups over HTTP: each stores only the blocks that
changed since the newest available backup of its volume (by the SHA-256
of each 32 KiB), a restore writes the chain (the full backup, then each
incremental one), and a backup that others stand on is not deleted."""

from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh

MiB = bh.MiB


def test_incremental_backups_store_changes_and_restore_whole(aio, wait,
                                                             tmp_path):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    path = aio.volume_path(volume['id'])
    bh.write(path, 0, MiB, 0xab)
    bh.write(path, 300 * MiB, 64 * 1024, 0xbc)
    full = bh.backup(http, volume['id'], wait_for=wait, name='full')
    at_full = bh.keep_copy(path, tmp_path, 'full')

    # Two runs of changed blocks, in two of the 64 MiB pieces.
    bh.write(path, 300 * MiB, 64 * 1024, 0x01)
    bh.write(path, 700 * MiB + 4096, 100, 0x02)
    inc1 = bh.backup(http, volume['id'], wait_for=wait, incremental=True,
                     name='inc1')
    at_inc1 = bh.keep_copy(path, tmp_path, 'inc1')
    assert (inc1['is_incremental'], inc1['object_count']) == (True, 2)
    shown = http.get('/backups/%s' % full['id']).json()['backup']
    assert (shown['is_incremental'], shown['has_dependent_backups']) == (
        False, True)
    files = bh.backup_files(aio, inc1)
    assert len(files) == 4
    assert sum(len(open(aio.backup_dir + '/' + inc1['container'] + '/' + f,
                        'rb').read())
               for f in files if f[-1].isdigit()) < 64 * 1024

    # Data back to zeros is a change too; the parent is the newest.
    bh.write(path, 0, MiB, 0x00)
    bh.write(path, 900 * MiB, MiB, 0x03)
    inc2 = bh.backup(http, volume['id'], wait_for=wait, incremental=True,
                     name='inc2')
    at_inc2 = bh.keep_copy(path, tmp_path, 'inc2')
    assert inc2['object_count'] == 2

    # The backups others stand on are not deleted.
    for backup in (full, inc1):
        assert 'incremental backups exist' in bh.error(
            http.delete('/backups/%s' % backup['id']), 400)

    # Each restores what the volume held when it was made: into new
    # volumes, and into a volume full of other data.
    for backup, copy in ((inc1, at_inc1), (full, at_full)):
        made = bh.restore(http, backup['id'])
        helpers.wait_until_status(http, made['volume_id'], 'available',
                                  wait)
        assert bh.same_data(aio.volume_path(made['volume_id']), copy)
        bh.wait_status(http, backup['id'], 'available', wait)
    target = helpers.create_volume(http, wait_for=wait)
    bh.write(aio.volume_path(target['id']), 0, 8 * MiB, 0x77)
    bh.restore(http, inc2['id'], volume_id=target['id'])
    helpers.wait_until_status(http, target['id'], 'available', wait)
    assert bh.same_data(aio.volume_path(target['id']), at_inc2)

    # Deleted newest first, each gives its quota back.
    assert bh.usage(http.project)['backups'] == 3
    for backup in (inc2, inc1, full):
        assert http.delete('/backups/%s' % backup['id']).status_code == 202
        bh.wait_gone(http, backup['id'], wait)
    assert bh.usage(http.project) == {
        'volumes': 4, 'gigabytes': 4, 'backups': 0, 'backup_gigabytes': 0}


def test_an_incremental_backup_needs_an_available_backup(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    resp = http.post('/backups', json={'backup': {
        'volume_id': volume['id'], 'incremental': True}})
    assert 'no backups available' in bh.error(resp, 400)
    full = bh.backup(http, volume['id'], wait_for=wait)
    admin = aio.http('admin', http.project, roles=['admin'])
    assert admin.post('/backups/%s/action' % full['id'], json={
        'os-reset_status': {'status': 'error'}}).status_code == 202
    resp = http.post('/backups', json={'backup': {
        'volume_id': volume['id'], 'incremental': True}})
    assert 'no backups available' in bh.error(resp, 400)
    # Nothing changed: the volume is available, no quota is counted.
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'
    assert bh.usage(http.project)['backups'] == 1


def test_an_incremental_backup_of_a_grown_volume_is_refused(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    bh.backup(http, volume['id'], wait_for=wait)
    resp = http.post('/volumes/%s/action' % volume['id'],
                     json={'os-extend': {'new_size': 2}})
    assert resp.status_code == 202, resp.text
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    resp = http.post('/backups', json={'backup': {
        'volume_id': volume['id'], 'incremental': True}})
    assert 'make a full backup' in bh.error(resp, 400)
    assert bh.usage(http.project)['backups'] == 1
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'
