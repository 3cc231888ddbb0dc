"""The noauth pipelines' /identity: version discovery, and a 403 that
says there is no Keystone for anything else; other paths pass on."""

import json

import webob

from tether.api import noauth_identity


def _app(environ, start_response):
    start_response('200 OK', [('Content-Type', 'text/plain')])
    return [b'the API']


APP = noauth_identity.NoauthIdentity(_app)


def _get(path, method='GET'):
    return webob.Request.blank(path, method=method).get_response(APP)


def test_version_discovery_answers_identity_v3():
    for path in ('/identity', '/identity/', '/identity/v3',
                 '/identity/v3/'):
        resp = _get(path)
        assert resp.status_int == 200, path
        version = json.loads(resp.body)['version']
        assert version['id'].startswith('v3.')
        assert version['status'] == 'stable'
        assert version['links'] == [
            {'rel': 'self', 'href': 'http://localhost/identity/v3/'}]


def test_every_identity_request_is_refused_saying_why():
    for method, path in (('GET', '/identity/v3/projects'),
                         ('GET', '/identity/v3/users?name=x'),
                         ('POST', '/identity/v3/auth/tokens'),
                         ('DELETE', '/identity/v3/projects/p'),
                         ('POST', '/identity/v3')):
        resp = _get(path, method)
        assert resp.status_int == 403, path
        error = json.loads(resp.body)['error']
        assert error['code'] == 403
        assert 'without Keystone' in error['message']


def test_other_paths_pass_on():
    for path in ('/', '/v3/p/volumes', '/identityx', '/v2.1/identity'):
        resp = _get(path)
        assert resp.body == b'the API', path
