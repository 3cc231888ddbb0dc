"""A server's addresses (/ips) and encrypted password
(/os-server-password) over HTTP: tether has no network service and no
metadata service, so there are none of either, answered in Nova's
shapes and status codes."""

import uuid

import pytest

from tests.functional.compute import server_helpers as sh


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_no_addresses_and_no_network(cloud):
    user = cloud.project()
    server = user.boot(wait=False)
    http = user.compute('2.1')
    resp = http.get('/servers/%s/ips' % server.id)
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'addresses': {}}
    # What the server shows agrees.
    assert user.server(server.id)['addresses'] == {}
    resp = http.get('/servers/%s/ips/private' % server.id)
    assert resp.status_code == 404, resp.text
    assert 'not a member of specified network' in \
        resp.json()['itemNotFound']['message']
    # openstacksdk's call.
    assert list(user.conn.compute.server_ips(server.id)) == []


def test_no_password_and_nothing_to_clear(cloud):
    user = cloud.project()
    server = user.boot(wait=False)
    http = user.compute(sh.LATEST)
    path = '/servers/%s/os-server-password' % server.id
    resp = http.get(path)
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'password': ''}
    assert http.delete(path).status_code == 204
    assert http.get(path).json() == {'password': ''}
    # A reader may read it, not clear it.
    reader = user.compute(sh.LATEST, roles=['reader'])
    assert reader.get(path).status_code == 200
    resp = reader.delete(path)
    assert resp.status_code == 403, resp.text


@pytest.mark.parametrize('path', ['/ips', '/ips/private',
                                  '/os-server-password'])
def test_an_unknown_server_is_a_404(cloud, path):
    user = cloud.project()
    resp = user.compute('2.1').get('/servers/%s%s' % (uuid.uuid4(), path))
    assert resp.status_code == 404, resp.text
    assert 'itemNotFound' in resp.json()


def test_another_projects_server_is_a_404(cloud):
    owner = cloud.project()
    server = owner.boot(wait=False)
    other = cloud.project()
    for method, path in (('GET', '/ips'), ('GET', '/os-server-password'),
                         ('DELETE', '/os-server-password')):
        resp = other.compute('2.1').request(
            method, '/servers/%s%s' % (server.id, path))
        assert resp.status_code == 404, (method, path, resp.text)
