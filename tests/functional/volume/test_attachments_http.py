"""HTTP stories of the attachments API: every status code it answers.

One story per test, over raw HTTP so that what a client library would not
send is sent too; the messages name the problem.
"""

import uuid

from tests.functional import helpers
from tether.db.volume import volume as db_volumes

CONNECTOR = {'host': 'story-host', 'mountpoint': '/dev/vdc'}


def _setup(aio, wait, version='3.44'):
    http = aio.http(version=version)
    volume = helpers.create_volume(http, wait_for=wait)
    return http, volume


def _create(http, volume, **attrs):
    resp = http.post('/attachments', json={'attachment': dict(
        volume_uuid=volume['id'], **attrs)})
    assert resp.status_code == 200, resp.text
    return resp.json()['attachment']


def _message(resp, key='badRequest'):
    return resp.json()[key]['message']


def _set_volume_status(volume_id, status):
    assert db_volumes.conditional_update(helpers.admin_context(), volume_id,
                                         {'status': status}, None)


def test_create_answers(aio, wait):
    http, volume = _setup(aio, wait, '3.53')
    # 404: an unknown volume.
    unknown = str(uuid.uuid4())
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': unknown}})
    assert resp.status_code == 404
    assert unknown in _message(resp, 'itemNotFound')
    # 400: malformed UUIDs, unknown keys, mode before 3.54, no body.
    for body, field in (
            ({'volume_uuid': 'not-a-uuid'}, 'attachment/volume_uuid'),
            ({'volume_uuid': volume['id'], 'instance_uuid': '42'},
             'attachment/instance_uuid'),
            ({'volume_uuid': volume['id'], 'color': 'red'}, 'color'),
            ({'volume_uuid': volume['id'], 'mode': 'ro'}, 'mode'),
            ({'volume_uuid': volume['id'],
              'connector': {'host': 'h', 'mode': 'rx'}},
             'attachment/connector/mode'),
            ({}, 'volume_uuid')):
        resp = http.post('/attachments', json={'attachment': body})
        assert resp.status_code == 400, (body, resp.text)
        assert field in _message(resp), (field, resp.text)
    assert http.post('/attachments', json={}).status_code == 400
    # 404 below 3.27: the route is not there.
    old = aio.http(http.user, http.project, version='3.26')
    assert old.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id']}}).status_code == 404
    # 200 with the attachment.
    body = _create(http, volume)
    assert body['status'] == 'reserved'
    assert body['attach_mode'] == 'null'
    assert body['connection_info'] == {}
    assert body['attached_at'] == body['detached_at'] == ''
    # An empty connector is no connector, as in Cinder (openstacksdk sends
    # it for `openstack volume attachment create` without --connect).
    empty = helpers.create_volume(http, wait_for=wait)
    body = _create(http, empty, connector={})
    assert (body['status'], body['connection_info']) == ('reserved', {})
    # 400 naming the status of a volume that cannot take it.
    second = helpers.create_volume(http, wait_for=wait)
    for status in ('extending', 'deleting', 'error', 'creating'):
        _set_volume_status(second['id'], status)
        resp = http.post('/attachments', json={'attachment': {
            'volume_uuid': second['id']}})
        assert resp.status_code == 400, resp.text
        assert 'volume %s is %s' % (second['id'], status) in _message(resp)


def test_mode_needs_3_54_and_is_rw_or_ro(aio, wait):
    http, volume = _setup(aio, wait, '3.54')
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id'], 'mode': 'rx'}})
    assert resp.status_code == 400
    assert '"rw" or "ro"' in _message(resp)
    assert _create(http, volume, mode='rw')['attach_mode'] == 'rw'


def test_update_answers(aio, wait):
    http, volume = _setup(aio, wait)
    attachment = _create(http, volume)
    path = '/attachments/%s' % attachment['id']
    # 400: no connector, an empty one, unknown keys.
    for body, field in (({'attachment': {}}, 'connector'),
                        ({'attachment': {'connector': {}}},
                         'attachment/connector'),
                        ({'attachment': {'connector': CONNECTOR,
                                         'mode': 'ro'}}, 'mode'),
                        ({'attachment': {'connector': 'host'}},
                         'attachment/connector')):
        resp = http.put(path, json=body)
        assert resp.status_code == 400, (body, resp.text)
        assert field in _message(resp), resp.text
    # 404: an unknown attachment.
    unknown = str(uuid.uuid4())
    resp = http.put('/attachments/%s' % unknown,
                    json={'attachment': {'connector': CONNECTOR}})
    assert resp.status_code == 404
    assert unknown in _message(resp, 'itemNotFound')
    # 200 with the connection info.
    resp = http.put(path, json={'attachment': {'connector': CONNECTOR}})
    assert resp.status_code == 200, resp.text
    assert resp.json()['attachment']['status'] == 'attaching'
    # 400 once it is no longer reserved.
    resp = http.put(path, json={'attachment': {'connector': CONNECTOR}})
    assert resp.status_code == 400
    assert 'is attaching' in _message(resp)


def test_update_of_a_volume_in_error_is_a_conflict(aio, wait):
    http, volume = _setup(aio, wait)
    attachment = _create(http, volume)
    _set_volume_status(volume['id'], 'error')
    resp = http.put('/attachments/%s' % attachment['id'],
                    json={'attachment': {'connector': CONNECTOR}})
    assert resp.status_code == 409, resp.text
    assert 'volume %s is error' % volume['id'] in _message(
        resp, 'conflictingRequest')
    assert http.get('/attachments/%s' % attachment['id']).json()[
        'attachment']['status'] == 'reserved'


def test_complete_answers(aio, wait):
    http, volume = _setup(aio, wait)
    attachment = _create(http, volume)
    action = '/attachments/%s/action' % attachment['id']
    # 400: not connected yet; an unknown action.
    resp = http.post(action, json={'os-complete': {}})
    assert resp.status_code == 400
    assert 'is reserved' in _message(resp)
    resp = http.post(action, json={'os-finish': {}})
    assert resp.status_code == 400
    assert 'os-finish' in _message(resp)
    # 404: below 3.44; an unknown attachment.
    old = aio.http(http.user, http.project, version='3.43')
    assert old.post(action, json={'os-complete': {}}).status_code == 404
    resp = http.post('/attachments/%s/action' % uuid.uuid4(),
                     json={'os-complete': {}})
    assert resp.status_code == 404
    # 204, also when asked again.
    http.put('/attachments/%s' % attachment['id'],
             json={'attachment': {'connector': CONNECTOR}})
    for _ in range(2):
        resp = http.post(action, json={'os-complete': attachment['id']})
        assert resp.status_code == 204, resp.text
        assert resp.content == b''
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'in-use'


def test_show_list_answers(aio, wait):
    http, volume = _setup(aio, wait)
    attachment = _create(http, volume)
    resp = http.get('/attachments/%s' % attachment['id'])
    assert resp.status_code == 200
    assert resp.json()['attachment']['shared_connections_by_attachment'] \
        == []
    assert http.get('/attachments/%s' % uuid.uuid4()).status_code == 404
    assert http.get('/attachments/%s?x=1' % attachment['id']
                    ).status_code == 400
    for query, words in (('?sort=size', 'Invalid sort key size'),
                         ('?limit=x', 'limit'),
                         ('?colour=red', 'colour'),
                         ('?marker=%s' % uuid.uuid4(), 'marker')):
        resp = http.get('/attachments/detail' + query)
        assert resp.status_code == 400, (query, resp.text)
        assert words in _message(resp)
    # The URLs without the project are served too.
    resp = http.session.get('%s/attachments/%s' % (
        aio.volume_url, attachment['id']))
    assert resp.status_code == 200, resp.text


def test_delete_answers(aio, wait):
    http, volume = _setup(aio, wait)
    reserved = _create(http, volume)
    resp = http.delete('/attachments/%s' % reserved['id'])
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'attachments': [],
                           'shared_connections_by_attachment': []}
    resp = http.delete('/attachments/%s' % reserved['id'])
    assert resp.status_code == 404
    assert reserved['id'] in _message(resp, 'itemNotFound')
    assert http.delete('/attachments/%s?force=1' % uuid.uuid4()
                       ).status_code == 400
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'


def test_volume_delete_names_the_attachment_in_the_way(aio, wait):
    http, volume = _setup(aio, wait)
    attachment = _create(http, volume)
    # Only an admin's reset can put it back to available with it.
    admin = aio.http('admin', 'admin')
    resp = admin.post('/volumes/%s/action' % volume['id'],
                      json={'os-reset_status': {'status': 'available'}})
    assert resp.status_code == 202, resp.text
    resp = http.delete('/volumes/%s' % volume['id'])
    assert resp.status_code == 400
    assert 'has attachment %s (reserved)' % attachment['id'] in \
        _message(resp)
