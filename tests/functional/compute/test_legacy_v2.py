"""Nova's legacy v2 endpoint (``/v2``): the v2.1 API at 2.1 whatever the
request asks for, no version headers in the answer, and the properties
a body's schema does not know dropped rather than refused."""

import uuid

import pytest
import requests

from tests.functional.compute import server_helpers as sh


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _legacy(aio, http):
    """``http``'s headers against /v2 instead of /v2.1."""
    root = aio.compute_root_url + '/v2'
    headers = dict(http.session.headers)

    def request(method, path, **kwargs):
        return requests.request(method, root + path, headers=dict(
            headers, **kwargs.pop('headers', {})), timeout=60, **kwargs)
    return request


def test_served_at_2_1_without_version_headers(aio):
    request = _legacy(aio, aio.compute_http())
    for headers in ({}, {'OpenStack-API-Version': 'compute 2.97'},
                    {'X-OpenStack-Nova-API-Version': '2.60'},
                    # Not even refused: the header means nothing here.
                    {'OpenStack-API-Version': 'compute 9.9'}):
        resp = request('GET', '/flavors/detail', headers=headers)
        assert resp.status_code == 200, resp.text
        assert 'OpenStack-API-Version' not in resp.headers
        assert 'X-OpenStack-Nova-API-Version' not in resp.headers
        flavor = resp.json()['flavors'][0]
        # 2.1's shape: no description (2.55), no extra_specs (2.61).
        assert 'description' not in flavor
        assert 'extra_specs' not in flavor
        assert flavor['links'][0]['href'].startswith(
            aio.compute_root_url + '/v2/flavors/')


def test_the_project_may_be_in_the_url(aio):
    http = aio.compute_http(project='p-legacy')
    request = _legacy(aio, http)
    assert request('GET', '/p-legacy/servers').status_code == 200
    assert request('GET', '/p-other/servers').status_code == 400
    assert request('GET', '/no-such-thing').status_code == 404


def test_unknown_properties_are_dropped_not_refused(cloud):
    user = cloud.project()
    volume = user.volume()
    body = sh.server_body(volume['id'])
    body['server']['no_such_property'] = 'x'
    body['server']['block_device_mapping_v2'][0]['unknown_too'] = 1
    body['unknown_top'] = {}
    # At /v2.1 it is a 400 naming one of them.
    resp = user.compute('2.1').post('/servers', json=body)
    assert resp.status_code == 400
    assert 'was unexpected' in resp.text
    request = _legacy(cloud.aio, user.compute('2.1'))
    resp = request('POST', '/servers', json=body)
    assert resp.status_code == 202, resp.text
    server = resp.json()['server']
    user.track(server['id'])
    assert server['links'][0]['href'].startswith(
        cloud.aio.compute_root_url + '/v2/')
    assert resp.headers['Location'] == server['links'][0]['href']
    user.wait_server(server['id'])
    # What it knows is still checked: a bad value of a known property is
    # a 400 naming it.
    bad = sh.server_body(user.volume()['id'])
    bad['server']['name'] = ''
    bad['server']['unknown'] = 1
    resp = request('POST', '/servers', json=bad)
    assert resp.status_code == 400, resp.text
    assert 'name' in resp.json()['badRequest']['message']


def test_an_unknown_server_is_a_404(aio):
    request = _legacy(aio, aio.compute_http())
    resp = request('GET', '/servers/%s' % uuid.uuid4())
    assert resp.status_code == 404, resp.text
    assert 'itemNotFound' in resp.json()
