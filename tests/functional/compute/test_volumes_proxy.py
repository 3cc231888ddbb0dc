"""/os-volumes and /os-snapshots over HTTP: the compute API's proxies to
the volume API, served from 2.1 to 2.35 as Nova serves them.

What the proxy makes is a volume of the volume API and the other way
round; the keys are Nova's legacy ones. From 2.36 every path is a 404.
"""

import uuid

import pytest

from tests.functional.compute import server_helpers as sh

LAST = '2.35'
GONE = '2.36'
KEYS = {'id', 'status', 'size', 'availabilityZone', 'createdAt',
        'attachments', 'displayName', 'displayDescription', 'volumeType',
        'snapshotId', 'metadata'}


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _create(http, **volume):
    return http.post('/os-volumes', json={'volume': volume})


def _wait_available(user, http, volume_id):
    def check():
        shown = http.get('/os-volumes/%s' % volume_id)
        assert shown.status_code == 200, shown.text
        body = shown.json()['volume']
        assert not body['status'].startswith('error'), body
        return body if body['status'] == 'available' else None
    return user.wait(check, timeout=sh.TIMEOUT, interval=0.05,
                     what='volume %s available' % volume_id)


def test_create_show_list_delete_through_the_proxy(cloud):
    user = cloud.project()
    http = user.compute(LAST)
    resp = _create(http, size='1', display_name='data',
                   display_description='for tests',
                   metadata={'Type': 'work'})
    assert resp.status_code == 200, resp.text
    made = resp.json()['volume']
    cloud.volumes.append((user, made['id']))
    assert set(made) == KEYS
    assert (made['size'], made['displayName'], made['displayDescription'],
            made['metadata'], made['snapshotId'], made['attachments']) == (
        1, 'data', 'for tests', {'Type': 'work'}, None, [{}])
    assert resp.headers['Location'].endswith('/os-volumes/' + made['id'])

    shown = _wait_available(user, http, made['id'])
    # It is the volume API's volume.
    volume = user.show_volume(made['id'])
    assert (volume['name'], volume['description'], volume['size'],
            volume['metadata'], volume['status']) == (
        'data', 'for tests', 1, {'Type': 'work'}, 'available')
    assert (shown['volumeType'], shown['availabilityZone'],
            shown['createdAt'][:19]) == (
        volume['volume_type'], volume['availability_zone'],
        volume['created_at'][:19])

    # One made by the volume API is seen through the proxy; list and
    # detail show the same as a show (the first page, as asked).
    other = user.volume()
    for path in ('/os-volumes', '/os-volumes/detail'):
        listed = http.get(path).json()['volumes']
        by_id = {v['id']: v for v in listed}
        assert by_id[made['id']] == shown
        assert by_id[other['id']]['displayName'] == other['name']
        assert len(http.get(path + '?limit=1').json()['volumes']) == 1
        page = http.get(path + '?limit=1&offset=1').json()['volumes']
        assert [v['id'] for v in page] == [listed[1]['id']]
    # Another project's volumes are not listed, nor shown.
    them = cloud.project().compute(LAST)
    assert made['id'] not in [v['id'] for v in
                              them.get('/os-volumes').json()['volumes']]
    assert them.get('/os-volumes/%s' % made['id']).status_code == 404

    # Delete through the proxy: gone from the volume API.
    resp = http.delete('/os-volumes/%s' % made['id'])
    assert resp.status_code == 202, resp.text
    user.wait_volume_gone(made['id'])
    assert http.get('/os-volumes/%s' % made['id']).status_code == 404
    # ... and the other way round.
    assert user.volumes().delete('/volumes/%s' % other['id']).status_code \
        == 202
    user.wait_volume_gone(other['id'])
    assert http.get('/os-volumes/%s' % other['id']).status_code == 404


def test_attachments_in_nova_legacy_keys(cloud):
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    http = user.compute(LAST)
    resp = http.post('/servers/%s/os-volume_attachments' % server.id,
                     json={'volumeAttachment': {'volumeId': data['id']}})
    assert resp.status_code == 200, resp.text
    shown = http.get('/os-volumes/%s' % data['id']).json()['volume']
    assert shown['status'] == 'in-use'
    assert shown['attachments'] == [{'id': data['id'],
                                     'volumeId': data['id'],
                                     'serverId': server.id,
                                     'device': '/dev/sdb'}]


def test_the_proxies_are_gone_from_2_36(cloud):
    user = cloud.project()
    data = user.volume()
    http = user.compute(GONE)
    for method, path in (('GET', '/os-volumes'),
                         ('GET', '/os-volumes/detail'),
                         ('GET', '/os-volumes/%s' % data['id']),
                         ('DELETE', '/os-volumes/%s' % data['id']),
                         ('GET', '/os-snapshots'),
                         ('GET', '/os-snapshots/detail'),
                         ('GET', '/os-snapshots/%s' % uuid.uuid4()),
                         ('DELETE', '/os-snapshots/%s' % uuid.uuid4())):
        resp = http.request(method, path)
        assert resp.status_code == 404, (method, path, resp.text)
        assert '2.35' in sh.message(resp), resp.text
    resp = _create(http, size=1)
    assert resp.status_code == 404, resp.text
    resp = http.post('/os-snapshots',
                     json={'snapshot': {'volume_id': data['id']}})
    assert resp.status_code == 404, resp.text
    # Nothing was deleted.
    assert user.show_volume(data['id'])['status'] == 'available'


def test_refusals(cloud):
    user = cloud.project()
    http = user.compute(LAST)
    # Bad bodies: 400 naming the field (Tempest's too: '#$%', '', '0').
    for body, word in (({'size': '#$%'}, 'size'), ({'size': ''}, 'size'),
                       ({'size': '0'}, 'size'), ({'size': 0}, 'size'),
                       ({'size': True}, 'size'),
                       ({'display_name': 'x'}, 'size'),
                       ({'size': 1, 'color': 'red'}, 'color'),
                       ({'size': 1, 'metadata': {'a': 1}}, 'metadata'),
                       ({'size': 1, 'display_name': 'x' * 256},
                        'display_name')):
        resp = _create(http, **body)
        assert resp.status_code == 400, (body, resp.text)
        assert word in sh.message(resp), (word, resp.text)
    resp = http.post('/os-volumes', json={'size': 1})
    assert resp.status_code == 400
    assert 'volume' in sh.message(resp)
    # What the volume API refuses: a 400 or 404 in its words.
    resp = _create(http, size=1, volume_type='no-such-type')
    assert resp.status_code == 400, resp.text
    assert 'no-such-type' in sh.message(resp)
    missing = str(uuid.uuid4())
    resp = _create(http, size=1, snapshot_id=missing)
    assert resp.status_code == 404, resp.text
    assert missing in sh.message(resp)
    # Sizes the volume API refuses: its 400, not a 500.
    for size in (10 ** 12, '9999999999'):
        resp = _create(http, size=size)
        assert resp.status_code in (400, 403), (size, resp.text)
    # Unknown ids (Tempest's: a random UUID, a name, nothing): 404; an id
    # stays one segment of the volume API's path.
    for volume_id in (missing, 'invalid-name'):
        for method in ('GET', 'DELETE'):
            resp = http.request(method, '/os-volumes/%s' % volume_id)
            assert resp.status_code == 404, (method, resp.text)
            assert volume_id in sh.message(resp)
    assert http.get('/os-volumes/').status_code == 404
    for volume_id in ('%2E%2E%2Fvolumes', 'x%3Fall_tenants%3D1', 'a%2Faction'):
        for method in ('GET', 'DELETE'):
            resp = http.request(method, '/os-volumes/%s' % volume_id)
            assert resp.status_code == 404, (volume_id, method, resp.text)
    assert http.get('/os-volumes/%20').status_code == 404
    assert http.delete('/os-volumes/').status_code == 404
    # Policy: a reader lists, but neither creates nor deletes.
    made = _create(http, size=1).json()['volume']
    cloud.volumes.append((user, made['id']))
    reader = user.compute(LAST, roles=['reader'])
    assert reader.get('/os-volumes').status_code == 200
    assert reader.get('/os-volumes/%s' % made['id']).status_code == 200
    resp = _create(reader, size=1)
    assert resp.status_code == 403, resp.text
    assert 'os_compute_api:os-volumes:create' in sh.message(resp)
    resp = reader.delete('/os-volumes/%s' % made['id'])
    assert resp.status_code == 403, resp.text
    assert 'os_compute_api:os-volumes:delete' in sh.message(resp)
    # Nor does a user with no role in the project list.
    nobody = user.compute(LAST, roles=['other'])
    resp = nobody.get('/os-volumes')
    assert resp.status_code == 403, resp.text


def test_snapshots_through_the_proxy(cloud, wait):
    user = cloud.project()
    data = user.volume()
    http = user.compute(LAST)
    for path in ('/os-snapshots', '/os-snapshots/detail'):
        resp = http.get(path)
        assert resp.status_code == 200, resp.text
        assert resp.json() == {'snapshots': []}
    resp = http.post('/os-snapshots', json={'snapshot': {
        'volume_id': data['id'], 'display_name': 's',
        'display_description': 'd'}})
    assert resp.status_code == 200, resp.text
    made = resp.json()['snapshot']
    assert (made['volumeId'], made['displayName'], made['displayDescription'],
            made['size']) == (data['id'], 's', 'd', data['size'])
    path = '/os-snapshots/%s' % made['id']
    wait(lambda: http.get(path).json()['snapshot']['status'] == 'available',
         what='snapshot available')
    listed = http.get('/os-snapshots/detail').json()['snapshots']
    assert [s['id'] for s in listed] == [made['id']]
    resp = http.delete(path)
    assert resp.status_code == 202, resp.text
    wait(lambda: http.get(path).status_code == 404, what='snapshot gone')
    missing = str(uuid.uuid4())
    for method in ('GET', 'DELETE'):
        resp = http.request(method, '/os-snapshots/%s' % missing)
        assert resp.status_code == 404, resp.text
        assert missing in sh.message(resp)
    resp = http.post('/os-snapshots',
                     json={'snapshot': {'volume_id': missing}})
    assert resp.status_code == 404, resp.text
    assert missing in sh.message(resp)
    for body, word in (({}, 'volume_id'),
                       ({'volume_id': data['id'], 'force': 'maybe'},
                        'force'),
                       ({'volume_id': data['id'], 'size': 1}, 'size')):
        resp = http.post('/os-snapshots', json={'snapshot': body})
        assert resp.status_code == 400, (body, resp.text)
        assert word in sh.message(resp), (word, resp.text)
    reader = user.compute(LAST, roles=['reader'])
    assert reader.get('/os-snapshots').status_code == 200
    resp = reader.post('/os-snapshots',
                       json={'snapshot': {'volume_id': data['id']}})
    assert resp.status_code == 403, resp.text
    assert user.show_volume(data['id'])['status'] == 'available'
