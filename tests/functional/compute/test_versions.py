"""Version discovery and microversion negotiation of the compute API."""

import requests

from tether.api.compute import versions


def test_root_lists_v20_then_v21_without_a_token(aio):
    resp = requests.get(aio.compute_root_url + '/')
    assert resp.status_code == 200
    legacy, doc = resp.json()['versions']
    # The legacy endpoint first, as Nova lists it (Tempest checks).
    assert (legacy['id'], legacy['status']) == ('v2.0', 'SUPPORTED')
    assert (legacy['min_version'], legacy['version']) == ('', '')
    assert legacy['links'] == [{'rel': 'self',
                                'href': aio.compute_root_url + '/v2/'}]
    assert doc['id'] == 'v2.1'
    assert doc['status'] == 'CURRENT'
    assert (doc['min_version'], doc['version']) == ('2.1', '2.97')
    assert doc['links'][0]['href'] == aio.compute_root_url + '/v2.1/'


def test_v21_document(aio):
    for path in ('/v2.1', '/v2.1/'):
        resp = requests.get(aio.compute_root_url + path)
        assert resp.status_code == 200
        doc = resp.json()['version']
        assert (doc['min_version'], doc['version']) == ('2.1', '2.97')
        assert doc['media-types'][0]['type'] == \
            'application/vnd.openstack.compute+json;version=2.1'


def test_v20_document(aio):
    for path in ('/v2', '/v2/'):
        resp = requests.get(aio.compute_root_url + path)
        assert resp.status_code == 200
        doc = resp.json()['version']
        assert (doc['id'], doc['min_version'], doc['version']) == (
            'v2.0', '', '')
        assert doc['links'][0]['href'] == aio.compute_root_url + '/v2/'
        assert doc['media-types'][0]['type'] == \
            'application/vnd.openstack.compute+json;version=2'


def test_the_latest_version_is_2_97():
    assert versions.MAX_VERSION == '2.97'


def test_sdk_discovers_the_range(aio):
    conn = aio.sdk()
    assert conn.compute.get_endpoint_data().max_microversion is not None
    assert str(conn.compute.get_endpoint_data().max_microversion) in (
        '(2, 97)', '2.97')


def _get(aio, headers):
    http = aio.compute_http()
    return http.get('/servers', headers=headers)


def test_microversion_headers(aio):
    resp = _get(aio, {})
    assert resp.status_code == 200
    assert resp.headers['OpenStack-API-Version'] == 'compute 2.1'
    assert resp.headers['X-OpenStack-Nova-API-Version'] == '2.1'
    assert 'OpenStack-API-Version' in resp.headers['Vary']
    resp = _get(aio, {'OpenStack-API-Version': 'compute 2.60'})
    assert resp.headers['OpenStack-API-Version'] == 'compute 2.60'
    resp = _get(aio, {'OpenStack-API-Version': 'compute latest'})
    assert resp.headers['OpenStack-API-Version'] == 'compute 2.97'


def test_legacy_header(aio):
    resp = _get(aio, {'X-OpenStack-Nova-API-Version': '2.53'})
    assert resp.status_code == 200
    assert resp.headers['OpenStack-API-Version'] == 'compute 2.53'
    assert resp.headers['X-OpenStack-Nova-API-Version'] == '2.53'


def test_out_of_range_and_malformed(aio):
    resp = _get(aio, {'OpenStack-API-Version': 'compute 2.98'})
    assert resp.status_code == 406
    assert '2.98' in resp.json()['notAcceptable']['message']
    resp = _get(aio, {'OpenStack-API-Version': 'compute 3.0'})
    assert resp.status_code == 406
    resp = _get(aio, {'OpenStack-API-Version': 'compute two'})
    assert resp.status_code == 400


def test_a_volume_header_does_not_pick_the_compute_version(aio):
    resp = _get(aio, {'OpenStack-API-Version': 'volume 3.71'})
    assert resp.status_code == 200
    assert resp.headers['OpenStack-API-Version'] == 'compute 2.1'


def test_unknown_path_and_method(aio):
    http = aio.compute_http()
    assert http.get('/no-such-thing').status_code == 404
    resp = http.request('PATCH', '/servers')
    assert resp.status_code == 405
    assert 'GET' in resp.headers['Allow']


def test_project_in_url_must_be_the_tokens(aio):
    http = aio.compute_http(project='p-one')
    resp = requests.get(aio.compute_url + '/p-two/servers',
                        headers=dict(http.session.headers))
    assert resp.status_code == 400
    resp = requests.get(aio.compute_url + '/servers',
                        headers=dict(http.session.headers))
    assert resp.status_code == 200


def test_the_request_id_is_answered_under_both_headers(aio):
    http = aio.compute_http()
    for resp in (http.get('/flavors'), http.get('/no-such-thing')):
        request_id = resp.headers['X-OpenStack-Request-ID']
        assert request_id.startswith('req-')
        assert resp.headers['X-Compute-Request-ID'] == request_id
    # The volume API answers with its one header only.
    resp = aio.http(version='3.0').get('/volumes')
    assert resp.headers['X-OpenStack-Request-ID'].startswith('req-')
    assert 'X-Compute-Request-ID' not in resp.headers
