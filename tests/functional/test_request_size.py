"""Request bodies are bounded ([oslo_middleware] max_request_body_size,
112 KiB, oslo.middleware's limiter as Cinder's pipeline has it): a body
past it is a 413, before it is read whole, and nothing is stored."""

import json

import pytest

from tests.functional import helpers

LIMIT = 112 * 1024


def _huge_volume(size=LIMIT + 1):
    body = {'volume': {'size': 1, 'description': ''}}
    padding = size - len(json.dumps(body))
    body['volume']['description'] = 'x' * padding
    return json.dumps(body).encode()


@pytest.mark.parametrize('api,path', [('volume', '/volumes'),
                                      ('compute', '/servers')])
def test_a_body_past_the_limit_is_413(aio, api, path):
    http = aio.http() if api == 'volume' else aio.compute_http()
    resp = http.post(path, data=_huge_volume(),
                     headers={'Content-Type': 'application/json'})
    assert resp.status_code == 413, resp.text[:300]
    # A fault as every other error, not oslo.middleware's HTML page.
    fault = resp.json()['overLimit']
    assert fault['error_code'] == 'api.body.too_large'
    assert fault['message'].startswith('Request is too large')
    if api == 'volume':
        assert helpers.project_volumes(http.project) == []


def test_a_chunked_body_past_the_limit_is_413(aio):
    """No Content-Length to refuse it by: refused while it is read."""
    http = aio.http()
    data = _huge_volume(4 * LIMIT)
    chunks = (data[i:i + 8192] for i in range(0, len(data), 8192))
    resp = http.post('/volumes', data=chunks,
                     headers={'Content-Type': 'application/json'})
    assert resp.status_code == 413, resp.text[:300]
    assert helpers.project_volumes(http.project) == []


def test_a_body_within_the_limit_is_read(aio):
    http = aio.http()
    resp = http.post('/volumes', data=_huge_volume(LIMIT - 1),
                     headers={'Content-Type': 'application/json'})
    # Past the description's 255 characters: the schema's 400, so the
    # body was read and validated.
    assert resp.status_code == 400, resp.text[:300]
    assert 'volume/description' in resp.json()['badRequest']['message']
