"""Backups that fail, are stopped, or outlive their tether-backup: a
repository that cannot be written (error, the quota given back, the
volume as it was), a force delete of a backup being made, a restart of
tether-backup in the middle of a backup (the next start makes it), and
a restore whose backup data is damaged (the volume error_restoring)."""

import os

from oslo_config import cfg
import pytest

from tests.functional import conftest
from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh

CONF = cfg.CONF
MiB = bh.MiB


@pytest.fixture
def small_pieces(aio):
    """tether-backup with pieces of 1 MiB: a backup of 1 GiB is 1024
    files, long enough to be caught in the middle."""
    aio.restart_backup_service(
        lambda: CONF.set_override('file_size', MiB, group='backup'))
    yield
    aio.restart_backup_service(
        lambda: CONF.clear_override('file_size', group='backup'))


def _some_files(aio, backup_id, count=5):
    """Wait until the backup wrote ``count`` files; its container."""
    container = os.path.join(aio.backup_dir, backup_id[:2], backup_id[2:4],
                             backup_id)

    def written():
        try:
            return len(os.listdir(container)) >= count
        except FileNotFoundError:
            return False
    conftest.wait_for(written, timeout=60, interval=0.01,
                      what='backup %s writing' % backup_id)
    return container


def test_a_repository_that_cannot_be_written(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    # A file where the backup's directory would be.
    blocked = os.path.join(aio.backup_dir, 'blocked-%s' % volume['id'][:8])
    with open(blocked, 'w') as f:
        f.write('not a directory')
    try:
        made = bh.backup(http, volume['id'], wait_for=wait,
                         status='error', container=os.path.basename(blocked))
    finally:
        os.unlink(blocked)
    assert 'cannot be made' in made['fail_reason']
    assert helpers.wait_until_status(http, volume['id'], 'available', wait)
    assert bh.usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'backups': 0, 'backup_gigabytes': 0}
    # Its delete gives nothing back a second time.
    assert http.delete('/backups/%s' % made['id']).status_code == 202
    bh.wait_gone(http, made['id'], wait)
    assert bh.usage(http.project)['backups'] == 0


def test_a_restart_in_the_middle_of_a_backup(aio, wait, tmp_path,
                                             small_pieces):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    path = aio.volume_path(volume['id'])
    for offset in range(0, helpers.GiB, 64 * MiB):
        bh.write(path, offset, 4096, 0x21 + offset // (64 * MiB))
    kept = bh.keep_copy(path, tmp_path, 'kept')
    made = bh.backup(http, volume['id'])
    container = _some_files(aio, made['id'])

    def while_down():
        # Stopped in the middle: still creating, the volume backing-up,
        # some of its files written.
        shown = http.get('/backups/%s' % made['id']).json()['backup']
        assert shown['status'] == 'creating'
        assert 0 < len(os.listdir(container)) < 1024
        assert http.get('/volumes/%s' % volume['id']).json()['volume'][
            'status'] == 'backing-up'
    aio.restart_backup_service(while_down)
    done = bh.wait_status(http, made['id'], 'available', wait, timeout=120)
    assert done['object_count'] == 1024
    assert len(os.listdir(container)) == 1026
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    restored = bh.restore(http, made['id'])
    helpers.wait_until_status(http, restored['volume_id'], 'available',
                              wait)
    assert bh.same_data(aio.volume_path(restored['volume_id']), kept)
    assert bh.usage(http.project) == {
        'volumes': 2, 'gigabytes': 2, 'backups': 1, 'backup_gigabytes': 1}


def test_a_force_delete_stops_a_backup_being_made(aio, wait, small_pieces):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    made = bh.backup(http, volume['id'])
    container = _some_files(aio, made['id'])
    assert 'is creating' in bh.error(
        http.delete('/backups/%s' % made['id']), 400)
    resp = admin.post('/backups/%s/action' % made['id'],
                      json={'os-force_delete': {}})
    assert resp.status_code == 202, resp.text
    bh.wait_gone(http, made['id'], wait)
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    wait(lambda: not os.path.exists(container), what='files removed')
    assert bh.usage(http.project)['backups'] == 0


def test_a_restore_of_damaged_data(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    bh.write(aio.volume_path(volume['id']), 0, MiB, 0x42)
    made = bh.backup(http, volume['id'], wait_for=wait)
    container = os.path.join(aio.backup_dir, made['container'])
    (first,) = [n for n in os.listdir(container) if n.endswith('-00001')]
    with open(os.path.join(container, first), 'r+b') as f:
        f.write(b'damaged')
    restored = bh.restore(http, made['id'])
    wait(lambda: http.get('/volumes/%s' % restored['volume_id']).json()[
        'volume']['status'] == 'error_restoring', what='error_restoring')
    assert bh.wait_status(http, made['id'], 'available', wait)
    # The volume, in error, is deleted as any.
    assert http.delete('/volumes/%s' % restored['volume_id']).ok
