"""HTTP the built-in server (cheroot) cannot hand to the app is answered
in the APIs' fault format, JSON, as every other error (issue #15: it was
a text/plain 400)."""

import json
import socket
import urllib.parse

import pytest


def _raw(url, request):
    """The status line, headers and body of the answer to the bytes
    ``request`` sent as they are."""
    parsed = urllib.parse.urlsplit(url)
    with socket.create_connection((parsed.hostname, parsed.port),
                                  timeout=10) as sock:
        sock.sendall(request)
        data = b''
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b'\r\n\r\n')
            length = [int(line.split(b':')[1]) for line in head.split(
                b'\r\n') if line.lower().startswith(b'content-length:')]
            if length and len(body) >= length[0]:
                break
    head, _, body = data.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    headers = dict(line.split(': ', 1) for line in lines[1:])
    return lines[0], headers, body


@pytest.mark.parametrize('request_bytes,status', [
    (b'get /v3 HTTP/1.1\r\nHost: x\r\n\r\n', '400'),          # lower case
    (b'GET /v3/a b HTTP/1.1\r\nHost: x\r\n\r\n', '400'),      # raw space
    (b'POST /v3/volumes HTTP/1.1\r\nHost: x\r\n'
     b'Content-Length: many\r\n\r\n', '400'),
    (b'GET /v3 HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n', '400'),
    (b'GET /v3 HTTP/7.0\r\nHost: x\r\n\r\n', '505'),
])
@pytest.mark.parametrize('api', ['volume', 'compute'])
def test_malformed_http_gets_a_json_fault(aio, api, request_bytes, status):
    url = aio.volume_url if api == 'volume' else aio.compute_url
    line, headers, body = _raw(url, request_bytes)
    assert line.split(' ')[1] == status, line
    assert headers['Content-Type'] == 'application/json'
    [(name, fault)] = json.loads(body).items()
    assert fault['code'] == int(status)
    assert fault['message']
    if status == '400':
        assert name == 'badRequest'
        assert fault['error_code'] == 'api.http.malformed'


def test_well_formed_http_still_reaches_the_api(aio):
    line, headers, body = _raw(aio.volume_url,
                               b'GET /v3 HTTP/1.1\r\nHost: x\r\n'
                               b'Connection: close\r\n\r\n')
    assert line.split(' ')[1] == '200', line
    assert 'versions' in json.loads(body)
