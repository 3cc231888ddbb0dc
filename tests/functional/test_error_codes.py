"""Error bodies of both APIs carry the stable error code of the problem
(doc/source/errors.rst) beside Cinder's and Nova's keys."""

import pytest

# Ids that name nothing (fixed: the test ids are the same in every
# pytest-xdist worker).
VOLUME_ID = '4c5e2a51-1ad5-4f7e-9b2e-6f0f6e0c2d11'
SERVER_ID = '9a1d3b77-2f44-4c8e-8b1a-0d2c3e4f5a66'


def _fault(resp):
    ((name, body),) = resp.json().items()
    return name, body


@pytest.mark.parametrize('method,path,body,status,name,code', [
    ('GET', '/volumes/%s' % VOLUME_ID, None, 404, 'itemNotFound',
     'volume.volume.not_found'),
    ('GET', '/no-such-thing', None, 404, 'itemNotFound',
     'api.route.not_found'),
    ('POST', '/volumes', {'volume': {'size': 'big'}}, 400, 'badRequest',
     'api.validation.failed'),
    ('POST', '/volumes', {'volume': {'size': 1, 'bogus': 1}}, 400,
     'badRequest', 'api.validation.failed'),
    ('PATCH', '/volumes', None, 405, 'badMethod',
     'api.route.method_not_allowed'),
    ('POST', '/volumes/%s/action' % VOLUME_ID, {'a': 1, 'b': 2}, 400,
     'badRequest', 'api.body.malformed'),
])
def test_volume_api(aio, method, path, body, status, name, code):
    resp = aio.http().request(method, path, json=body)
    assert resp.status_code == status, resp.text
    assert _fault(resp) == (name, {'code': status, 'error_code': code,
                                   'message': _fault(resp)[1]['message']})


def test_a_policy_refusal_and_an_unknown_microversion(aio):
    reader = aio.http(roles=['reader'])
    resp = reader.post('/volumes', json={'volume': {'size': 1}})
    assert resp.status_code == 403
    assert _fault(resp)[1]['error_code'] == 'tether.policy.not_authorized'
    resp = aio.http(version='3.999').get('/volumes')
    assert resp.status_code == 406
    assert _fault(resp)[1]['error_code'] == 'api.microversion.unsupported'


def test_compute_api(aio):
    http = aio.compute_http()
    resp = http.get('/servers/%s' % SERVER_ID)
    assert resp.status_code == 404
    assert _fault(resp) == ('itemNotFound', {
        'code': 404, 'error_code': 'compute.server.not_found',
        'message': _fault(resp)[1]['message']})
    # Creating flavors is for administrators.
    resp = http.post('/flavors', json={'flavor': {
        'name': 'x', 'ram': 64, 'vcpus': 1, 'disk': 0}})
    assert resp.status_code == 403
    assert _fault(resp)[1]['error_code'] == 'tether.policy.not_authorized'
    # The action is unknown before the server is looked for.
    resp = http.post('/servers/%s/action' % SERVER_ID,
                     json={'os-frobnicate': None})
    assert resp.status_code == 400
    assert _fault(resp)[1]['error_code'] == 'api.action.unknown'
