"""Backups raced against what would take the same volume or backup, each
request on its own session, against the real database: one wins, the
other gets a 400 that names the status it found, and nothing is left
half changed."""

from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh

MiB = bh.MiB


def test_a_backup_racing_the_delete_of_its_volume(aio, wait):
    http = aio.http()
    for _ in range(3):
        volume = helpers.create_volume(http, wait_for=wait)
        create, delete = helpers.race([
            lambda: aio.http(http.user, http.project).post(
                '/backups', json={'backup': {'volume_id': volume['id']}}),
            lambda: aio.http(http.user, http.project).delete(
                '/volumes/%s' % volume['id'])])
        # (The create may read the volume once it is gone: a 404.)
        assert (create.status_code, delete.status_code) in (
            (202, 400), (400, 202), (404, 202)), (create.text, delete.text)
        if create.status_code == 202:
            assert 'backing-up' in bh.error(delete, 400)
            bh.wait_status(http, create.json()['backup']['id'],
                           'available', wait)
            helpers.wait_until_status(http, volume['id'], 'available',
                                      wait)
        else:
            if create.status_code == 400:
                assert 'deleting' in bh.error(create, 400)
            wait(lambda: http.get('/volumes/%s' % volume['id'])
                 .status_code == 404, what='volume gone')
    backups = http.get('/backups').json()['backups']
    assert bh.usage(http.project)['backups'] == len(backups)


def test_two_restores_into_one_volume(aio, wait, tmp_path):
    http = aio.http()
    source = helpers.create_volume(http, wait_for=wait)
    bh.write(aio.volume_path(source['id']), 0, MiB, 0x3c)
    first = bh.backup(http, source['id'], wait_for=wait)
    bh.write(aio.volume_path(source['id']), 0, MiB, 0x4d)
    second = bh.backup(http, source['id'], wait_for=wait)
    target = helpers.create_volume(http, wait_for=wait)
    one, two = helpers.race([
        lambda b=b: aio.http(http.user, http.project).post(
            '/backups/%s/restore' % b['id'],
            json={'restore': {'volume_id': target['id']}})
        for b in (first, second)])
    assert sorted([one.status_code, two.status_code]) == [202, 400], (
        one.text, two.text)
    loser = one if one.status_code == 400 else two
    assert 'must be available' in bh.error(loser, 400)
    helpers.wait_until_status(http, target['id'], 'available', wait)
    won = first if one.status_code == 202 else second
    with open(aio.volume_path(target['id']), 'rb') as f:
        assert f.read(1) == (b'\x3c' if won is first else b'\x4d')
    for b in (first, second):
        assert bh.wait_status(http, b['id'], 'available', wait)


def test_two_restores_of_one_backup(aio, wait):
    http = aio.http()
    source = helpers.create_volume(http, wait_for=wait)
    backup = bh.backup(http, source['id'], wait_for=wait)
    one, two = helpers.race([
        lambda: aio.http(http.user, http.project).post(
            '/backups/%s/restore' % backup['id'], json={'restore': None})
        for _ in range(2)])
    assert sorted([one.status_code, two.status_code]) == [202, 400], (
        one.text, two.text)
    loser = one if one.status_code == 400 else two
    assert 'is restoring' in bh.error(loser, 400)
    winner = one if one.status_code == 202 else two
    helpers.wait_until_status(http, winner.json()['restore']['volume_id'],
                              'available', wait)
    # Only the winner made a volume.
    assert bh.usage(http.project)['volumes'] == 2


def test_an_incremental_backup_racing_the_delete_of_its_parent(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    for _ in range(3):
        parent = bh.backup(http, volume['id'], wait_for=wait)
        create, delete = helpers.race([
            lambda: aio.http(http.user, http.project).post(
                '/backups', json={'backup': {'volume_id': volume['id'],
                                             'incremental': True}}),
            lambda: aio.http(http.user, http.project).delete(
                '/backups/%s' % parent['id'])])
        if create.status_code == 202:
            # It stands on the parent: the delete was refused.
            assert 'incremental backups exist' in bh.error(delete, 400)
            child = bh.wait_status(http, create.json()['backup']['id'],
                                   'available', wait)
            assert child['is_incremental']
            for b in (child, parent):
                assert http.delete('/backups/%s' % b['id']).ok
                bh.wait_gone(http, b['id'], wait)
        else:
            assert delete.status_code == 202, delete.text
            assert 'no backups available' in bh.error(create, 400)
            bh.wait_gone(http, parent['id'], wait)
        helpers.wait_until_status(http, volume['id'], 'available', wait)
    assert bh.usage(http.project)['backups'] == 0
