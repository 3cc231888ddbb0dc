"""Volume transfers refused: a wrong key, unknown and other projects'
transfers, an accept over the accepting project's quota, volumes and
snapshots in the wrong state. Each refusal changes nothing."""

import uuid

from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh
from tests.functional.volume import transfer_helpers as th

LATEST = th.LATEST


def _admin(aio):
    return aio.http('op', 'ops-' + uuid.uuid4().hex[:8], roles=['admin'],
                    version=LATEST)


def _state(giver, taker, volume_id, transfer_id):
    """What a refused accept must leave as it was."""
    return (th.volume_of(giver, volume_id)['status'],
            giver.get('/volume-transfers/%s' % transfer_id).status_code,
            th.usage(giver.project), th.usage(taker.project),
            taker.get('/volumes/%s' % volume_id).status_code)


def test_a_wrong_key_is_refused(aio, wait):
    giver, taker = aio.http(version=LATEST), aio.http(version=LATEST)
    volume = helpers.create_volume(giver, wait_for=wait)
    transfer = th.offer(giver, volume['id'])
    before = _state(giver, taker, volume['id'], transfer['id'])
    assert before == ('awaiting-transfer', 200,
                      {'volumes': 1, 'gigabytes': 1, 'snapshots': 0},
                      {'volumes': 0, 'gigabytes': 0, 'snapshots': 0}, 404)
    wrong = ('0' * 16 if transfer['auth_key'] != '0' * 16 else '1' * 16)
    for key in (wrong, transfer['auth_key'].upper() + 'x', 1234, ''):
        message = th.error(th.accept(taker, transfer['id'], key), 400)
        assert 'Invalid auth key' in message and transfer['id'] in message
    assert _state(giver, taker, volume['id'], transfer['id']) == before
    # The key is in no answer but the create's.
    for path in ('/volume-transfers/%s' % transfer['id'],
                 '/volume-transfers/detail', '/volume-transfers'):
        assert transfer['auth_key'] not in giver.get(path).text
    resp = taker.post('/volume-transfers/%s/accept' % transfer['id'],
                      json={'accept': {}})
    assert 'auth_key' in th.error(resp, 400)
    assert th.accept(taker, transfer['id'],
                     transfer['auth_key']).status_code == 202


def test_unknown_and_other_projects_transfers_are_not_found(aio, wait):
    giver, other = aio.http(version=LATEST), aio.http(version=LATEST)
    volume = helpers.create_volume(giver, wait_for=wait)
    transfer = th.offer(giver, volume['id'])
    path = '/volume-transfers/%s' % transfer['id']
    unknown = str(uuid.uuid4())
    for http, tid in ((giver, unknown), (other, transfer['id'])):
        for resp in (http.get('/volume-transfers/%s' % tid),
                     http.delete('/volume-transfers/%s' % tid),
                     http.get('/os-volume-transfer/%s' % tid)):
            assert tid in th.error(resp, 404)
    assert unknown in th.error(th.accept(other, unknown, 'x' * 16), 404)
    # Nor can another project offer a volume it cannot see.
    resp = th.offer(other, volume['id'], status=404)
    assert volume['id'] in th.error(resp, 404)
    resp = th.offer(giver, unknown, status=404)
    assert unknown in th.error(resp, 404)
    assert other.get('/volume-transfers').json()['transfers'] == []
    assert giver.get(path).status_code == 200
    # An administrator sees and cancels any project's.
    admin = _admin(aio)
    assert admin.get(path).json()['transfer']['source_project_id'] == \
        giver.project
    assert admin.delete(path).status_code == 202
    assert th.volume_of(giver, volume['id'])['status'] == 'available'


def test_an_accept_over_quota_changes_nothing(aio, wait):
    giver, taker = aio.http(version=LATEST), aio.http(version=LATEST)
    volume = helpers.create_volume(giver, size=2, wait_for=wait)
    snapshot = sh.snapshot(giver, volume['id'], wait_for=wait)
    transfer = th.offer(giver, volume['id'])
    before = _state(giver, taker, volume['id'], transfer['id'])
    for limits, resource in (({'volumes': 0}, 'volumes'),
                             ({'gigabytes': 3}, 'gigabytes'),
                             ({'snapshots': 0}, 'snapshots'),
                             ({'per_volume_gigabytes': 1}, '2G')):
        helpers.set_limits(taker.project, **dict(
            {'volumes': 10, 'gigabytes': 100, 'snapshots': 10,
             'per_volume_gigabytes': -1}, **limits))
        resp = th.accept(taker, transfer['id'], transfer['auth_key'])
        assert resp.headers.get('Retry-After') == '0'
        assert resource in th.error(resp, 413)
        assert _state(giver, taker, volume['id'], transfer['id']) == before
        assert giver.get('/snapshots/%s' % snapshot['id']).status_code == 200
    # Room for the volume (2G) and its snapshot (2G more): taken.
    helpers.set_limits(taker.project, volumes=1, gigabytes=4, snapshots=1,
                       per_volume_gigabytes=2)
    assert th.accept(taker, transfer['id'],
                     transfer['auth_key']).status_code == 202
    assert th.usage(taker.project) == {'volumes': 1, 'gigabytes': 4,
                                       'snapshots': 1}
    assert th.usage(giver.project) == {'volumes': 0, 'gigabytes': 0,
                                       'snapshots': 0}


def test_only_an_available_volume_is_offered(aio, wait):
    http = aio.http(version=LATEST)
    admin = _admin(aio)
    # Reserved (an attachment without a connector).
    reserved = helpers.create_volume(http, wait_for=wait)
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': reserved['id'], 'instance_uuid': str(uuid.uuid4())}})
    assert resp.status_code == 200, resp.text
    assert 'reserved' in th.error(th.offer(http, reserved['id'],
                                           status=400), 400)
    # In error.
    broken = helpers.create_volume(http, wait_for=wait)
    assert admin.post('/volumes/%s/action' % broken['id'], json={
        'os-reset_status': {'status': 'error'}}).status_code == 202
    assert 'error' in th.error(th.offer(http, broken['id'], status=400),
                               400)
    # Offered already: not twice, nor deleted, extended, snapshotted or
    # attached.
    offered = helpers.create_volume(http, wait_for=wait)
    transfer = th.offer(http, offered['id'])
    assert 'awaiting-transfer' in th.error(
        th.offer(http, offered['id'], status=400), 400)
    for resp in (http.delete('/volumes/%s' % offered['id']),
                 http.post('/volumes/%s/action' % offered['id'],
                           json={'os-extend': {'new_size': 2}}),
                 http.post('/snapshots', json={'snapshot': {
                     'volume_id': offered['id']}}),
                 http.post('/attachments', json={'attachment': {
                     'volume_uuid': offered['id'],
                     'instance_uuid': str(uuid.uuid4())}})):
        assert 'awaiting-transfer' in th.error(resp, 400)
    assert http.get('/volume-transfers').json()['transfers'][0]['id'] == \
        transfer['id']
    assert th.usage(http.project) == {'volumes': 3, 'gigabytes': 3,
                                      'snapshots': 0}


def test_a_snapshot_that_is_not_available_holds_its_volume(aio, wait):
    giver, taker = aio.http(version=LATEST), aio.http(version=LATEST)
    volume = helpers.create_volume(giver, wait_for=wait)
    snapshot = sh.snapshot(giver, volume['id'], wait_for=wait)
    assert _admin(aio).post('/snapshots/%s/action' % snapshot['id'], json={
        'os-reset_status': {'status': 'error'}}).status_code == 202
    message = th.error(th.offer(giver, volume['id'], status=400), 400)
    assert snapshot['id'] in message and 'error' in message
    assert th.volume_of(giver, volume['id'])['status'] == 'available'
    # Without its snapshots, the volume goes.
    transfer = th.offer(giver, volume['id'], no_snapshots=True)
    assert th.accept(taker, transfer['id'],
                     transfer['auth_key']).status_code == 202
    assert th.volume_of(taker, volume['id'])['status'] == 'available'


def test_a_volume_reset_while_offered(aio, wait):
    """An administrator's reset of an offered volume: the accept is
    refused (400) and changes nothing; the cancel leaves the status as
    the reset made it, as Cinder does."""
    giver, taker = aio.http(version=LATEST), aio.http(version=LATEST)
    volume = helpers.create_volume(giver, wait_for=wait)
    transfer = th.offer(giver, volume['id'])
    assert _admin(aio).post('/volumes/%s/action' % volume['id'], json={
        'os-reset_status': {'status': 'error'}}).status_code == 202
    before = _state(giver, taker, volume['id'], transfer['id'])
    resp = th.accept(taker, transfer['id'], transfer['auth_key'])
    assert 'awaiting-transfer' in th.error(resp, 400)
    assert _state(giver, taker, volume['id'], transfer['id']) == before
    assert giver.delete('/volume-transfers/%s'
                        % transfer['id']).status_code == 202
    assert th.volume_of(giver, volume['id'])['status'] == 'error'
