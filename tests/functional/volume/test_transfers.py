"""Volume transfers over HTTP: a volume offered by one project and taken
by another, with openstacksdk and under both of Cinder's paths; what each
microversion answers; lists (their refusals and races:
test_transfer_refusals.py, test_transfer_races.py)."""

import uuid

from tests.functional import helpers
from tests.functional.volume import transfer_helpers as th

LATEST = th.LATEST


def test_a_volume_changes_project_with_openstacksdk(aio, wait):
    giver, taker = aio.sdk(), aio.sdk()
    volume = giver.block_storage.create_volume(size=2, name='gift')
    volume = giver.block_storage.wait_for_status(volume, 'available',
                                                 interval=0.05, wait=30)
    assert th.usage(giver.test_project) == {
        'volumes': 1, 'gigabytes': 2, 'snapshots': 0}
    assert th.usage(taker.test_project) == {
        'volumes': 0, 'gigabytes': 0, 'snapshots': 0}

    transfer = giver.block_storage.create_transfer(volume_id=volume.id,
                                                   name='to a friend')
    assert transfer.auth_key and len(transfer.auth_key) == 16
    assert giver.block_storage.get_volume(volume.id).status == \
        'awaiting-transfer'
    shown = giver.block_storage.get_transfer(transfer.id)
    assert (shown.name, shown.volume_id) == ('to a friend', volume.id)
    assert shown.auth_key is None
    assert [t.id for t in giver.block_storage.transfers()] == [transfer.id]
    # The taker sees neither the transfer nor the volume before.
    assert list(taker.block_storage.transfers()) == []

    taken = taker.block_storage.accept_transfer(transfer.id,
                                                transfer.auth_key)
    assert (taken.id, taken.volume_id) == (transfer.id, volume.id)
    moved = taker.block_storage.get_volume(volume.id)
    assert moved.status == 'available'
    assert moved.project_id == taker.test_project
    assert moved.user_id == taker.test_user
    assert list(giver.block_storage.volumes()) == []
    assert list(giver.block_storage.transfers()) == []
    # Its quota moved with it, exactly.
    assert th.usage(giver.test_project) == {
        'volumes': 0, 'gigabytes': 0, 'snapshots': 0}
    assert th.usage(taker.test_project) == {
        'volumes': 1, 'gigabytes': 2, 'snapshots': 0}
    # The volume's file did not move: the same volume, its new owner's.
    taker.block_storage.delete_volume(moved)
    taker.block_storage.wait_for_delete(moved, interval=0.05, wait=30)
    assert th.usage(taker.test_project)['volumes'] == 0


def test_the_legacy_path_and_what_each_version_shows(aio, wait):
    http = aio.http(version='3.0')
    volume = helpers.create_volume(http, wait_for=wait)
    made = th.offer(http, volume['id'], path='/os-volume-transfer',
                    name='  spaced  ')
    assert set(made) == {'id', 'created_at', 'name', 'volume_id',
                         'auth_key', 'links'}
    assert made['name'] == 'spaced'
    assert made['links'][0]['href'].endswith(
        '/v3/%s/os-volume-transfer/%s' % (http.project, made['id']))
    path = '/os-volume-transfer/%s' % made['id']
    shown = http.get(path).json()['transfer']
    assert set(shown) == {'id', 'created_at', 'name', 'volume_id', 'links'}
    at_355 = aio.http(http.user, http.project, version='3.55')
    assert at_355.get(path).json()['transfer']['no_snapshots'] is False
    latest = aio.http(http.user, http.project, version=LATEST)
    for each in ('/os-volume-transfer/%s', '/volume-transfers/%s'):
        shown = latest.get(each % made['id']).json()['transfer']
        assert set(shown) == {'id', 'created_at', 'name', 'volume_id',
                              'links', 'no_snapshots', 'source_project_id',
                              'destination_project_id', 'accepted'}
        assert (shown['source_project_id'], shown['destination_project_id'],
                shown['accepted']) == (http.project, None, False)
    listed = http.get('/os-volume-transfer').json()
    assert listed == {'transfers': [{'id': made['id'], 'name': 'spaced',
                                     'volume_id': volume['id'],
                                     'links': made['links']}]}
    detail = http.get('/os-volume-transfer/detail').json()['transfers']
    assert [t['created_at'] for t in detail] == [made['created_at']]

    # Cancelled: the volume is available again, the transfer gone.
    assert th.volume_of(http, volume['id'])['status'] == 'awaiting-transfer'
    assert http.delete(path).status_code == 202
    assert th.volume_of(http, volume['id'])['status'] == 'available'
    assert http.get(path).status_code == 404
    assert http.get('/os-volume-transfer').json() == {'transfers': []}


def test_the_new_path_is_served_from_355(aio, wait):
    http = aio.http(version='3.54')
    volume = helpers.create_volume(http, wait_for=wait)
    resp = http.post('/volume-transfers',
                     json={'transfer': {'volume_id': volume['id']}})
    assert resp.status_code == 404, resp.text
    assert http.get('/volume-transfers').status_code == 404
    # The legacy path takes no no_snapshots, at any version (Cinder's).
    latest = aio.http(http.user, http.project, version=LATEST)
    resp = th.offer(latest, volume['id'], path='/os-volume-transfer',
                    status=400, no_snapshots=True)
    assert 'no_snapshots' in th.error(resp, 400)
    made = th.offer(latest, volume['id'], no_snapshots='true')
    assert made['no_snapshots'] is True
    assert latest.delete('/volume-transfers/%s' % made['id']).status_code \
        == 202


def test_lists_filter_sort_and_page(aio, wait):
    http = aio.http(version=LATEST)
    made = []
    for name in ('a', 'b', 'c'):
        volume = helpers.create_volume(http, wait_for=wait)
        made.append(th.offer(http, volume['id'], name=name))
    ids = [t['id'] for t in made]

    def listed(query, path='/volume-transfers'):
        resp = http.get(path + query)
        assert resp.status_code == 200, resp.text
        return resp.json()

    # Newest first from 3.59 on /volume-transfers; oldest first on the
    # legacy path and below 3.59 (Cinder's orders).
    assert [t['id'] for t in listed('')['transfers']] == ids[::-1]
    assert [t['id'] for t in listed('', '/os-volume-transfer')[
        'transfers']] == ids
    old = aio.http(http.user, http.project, version='3.58')
    assert [t['id'] for t in old.get('/volume-transfers').json()[
        'transfers']] == ids
    assert [t['id'] for t in listed('?name=b')['transfers']] == [ids[1]]
    assert [t['id'] for t in listed('/detail?volume_id=%s'
                                    % made[2]['volume_id'])[
        'transfers']] == [ids[2]]
    assert [t['id'] for t in listed('?sort=name:asc')['transfers']] == ids
    page = listed('?limit=2&sort=name:asc')
    assert [t['id'] for t in page['transfers']] == ids[:2]
    assert 'marker=%s' % ids[1] in page['transfers_links'][0]['href']
    assert [t['id'] for t in listed('?limit=2&sort=name:asc&marker=%s'
                                    % ids[1])['transfers']] == ids[2:]
    resp = http.get('/volume-transfers?marker=%s' % uuid.uuid4())
    assert 'among the transfers' in th.error(resp, 404)
    assert 'Invalid sort key' in th.error(
        http.get('/volume-transfers?sort=salt'), 400)
    assert th.error(http.get('/volume-transfers?auth_key=x'), 400)

    # An administrator lists every project's with all_tenants.
    admin = aio.http('op', 'ops-' + uuid.uuid4().hex[:8], roles=['admin'],
                     version=LATEST)
    assert admin.get('/volume-transfers').json()['transfers'] == []
    every = admin.get('/volume-transfers/detail?all_tenants=1&project_id=%s'
                      % http.project).json()['transfers']
    assert sorted(t['id'] for t in every) == sorted(ids)
    for transfer in made:
        assert http.delete('/volume-transfers/%s'
                           % transfer['id']).status_code == 202
