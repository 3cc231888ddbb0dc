"""What a server is given for itself and kept as given: ``user_data``
(create; rebuild from 2.57) and the access addresses ``accessIPv4`` and
``accessIPv6`` (create, update, rebuild), as Nova takes and shows them."""

import base64

import pytest

from tests.functional.compute import server_helpers as sh

SCRIPT = base64.b64encode(b'#!/bin/sh\necho hello\n').decode()


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_create_keeps_user_data_and_access_addresses(cloud):
    user = cloud.project()
    # openstacksdk, as a user calls it (the data already base64).
    server = user.boot(wait=False, user_data=SCRIPT,
                       access_ipv4='192.0.2.7', access_ipv6='2001:db8::7')
    shown = user.server(server.id, '2.1')
    assert (shown['accessIPv4'], shown['accessIPv6']) == (
        '192.0.2.7', '2001:db8::7')
    # The user data: an administrator's view, from 2.3.
    admin = cloud.aio.compute_http('admin', 'admin', version='2.3')
    assert admin.get('/servers/%s' % server.id).json()['server'][
        'OS-EXT-SRV-ATTR:user_data'] == SCRIPT
    assert 'OS-EXT-SRV-ATTR:user_data' not in user.server(server.id, '2.3')
    # A server given none shows empty addresses and no user data.
    bare = user.boot(wait=False)
    assert user.server(bare.id)['accessIPv4'] == ''
    assert admin.get('/servers/%s' % bare.id).json()['server'][
        'OS-EXT-SRV-ATTR:user_data'] is None


@pytest.mark.parametrize('key,value', [
    ('user_data', 'not base64!'),
    ('user_data', 'A' * 65536),
    ('user_data', 5),
    ('accessIPv4', '192.0.2'),
    ('accessIPv4', '2001:db8::1'),
    ('accessIPv6', '192.0.2.1'),
    ('accessIPv6', 'fe80::g'),
])
def test_bad_values_are_refused_naming_the_field(cloud, key, value):
    user = cloud.project()
    body = sh.server_body(user.volume()['id'])
    body['server'][key] = value
    resp = user.compute(sh.LATEST).post('/servers', json=body)
    assert resp.status_code == 400, resp.text
    assert key in sh.message(resp)


def test_update_changes_the_access_addresses(cloud):
    user = cloud.project()
    server = user.boot(wait=False, access_ipv4='192.0.2.7')
    path = '/servers/%s' % server.id
    resp = user.compute('2.1').put(path, json={'server': {
        'accessIPv4': '198.51.100.9', 'accessIPv6': '2001:db8::9',
        'OS-DCF:diskConfig': 'MANUAL'}})
    assert resp.status_code == 200, resp.text
    assert (resp.json()['server']['accessIPv4'],
            resp.json()['server']['accessIPv6']) == ('198.51.100.9',
                                                     '2001:db8::9')
    assert user.server(server.id)['accessIPv4'] == '198.51.100.9'
    resp = user.compute('2.1').put(path, json={'server': {
        'accessIPv6': 'nope'}})
    assert resp.status_code == 400, resp.text
    assert 'accessIPv6' in sh.message(resp)
    assert user.server(server.id)['accessIPv6'] == '2001:db8::9'


def _files(count, path='/etc/motd', size=4):
    return [{'path': path, 'contents': base64.b64encode(b'x' * size).decode()}
            for _ in range(count)]


def test_personality_is_checked_up_to_2_56_and_unknown_from_2_57(cloud):
    user = cloud.project()
    body = sh.server_body(user.volume()['id'])
    body['server']['personality'] = _files(5, size=10240)
    resp = user.compute('2.56').post('/servers', json=body)
    assert resp.status_code == 202, resp.text
    user.track(resp.json()['server']['id'])
    for files, words in (
            (_files(6), 'Personality file limit exceeded'),
            (_files(1, path='/' + 'p' * 255),
             'Personality file path exceeds maximum 255'),
            (_files(1, size=10241),
             'Personality file content exceeds maximum 10240')):
        body = sh.server_body(user.volume()['id'])
        body['server']['personality'] = files
        resp = user.compute('2.1').post('/servers', json=body)
        assert resp.status_code == 403, resp.text
        assert words in resp.json()['forbidden']['message']
    for files in ([{'path': '/a', 'contents': 'not base64!'}],
                  [{'path': '/a', 'contents': 'eA==', 'mode': '0644'}],
                  {'path': '/a'}):
        body = sh.server_body(user.volume()['id'])
        body['server']['personality'] = files
        resp = user.compute('2.56').post('/servers', json=body)
        assert resp.status_code == 400, resp.text
        assert 'personality' in sh.message(resp)
    body = sh.server_body(user.volume()['id'])
    body['server']['personality'] = _files(1)
    resp = user.compute('2.57').post('/servers', json=body)
    assert resp.status_code == 400, resp.text
    assert 'personality' in sh.message(resp)
