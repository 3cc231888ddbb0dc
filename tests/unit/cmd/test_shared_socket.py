"""The API workers of tether-aio accept from one listening socket."""

import http.client

from tether.cmd import common


def _app(environ, start_response):
    start_response('200 OK', [('Content-Type', 'text/plain')])
    return [b'served']


def test_a_worker_never_waits_in_accept():
    """All workers wake for a new connection and one takes it; a worker
    that lost must find nothing at once (cheroot's own 1 s timeout held its
    open connections for a second: p99 of 980 ms at concurrency 8)."""
    sock = common.listening_socket('127.0.0.1', 0)
    server = common.WSGIServer('test', _app, None, None, 2, sock=sock)
    server.start()
    try:
        assert server.server.socket.gettimeout() == 0
        assert server.port == sock.getsockname()[1]
        conn = http.client.HTTPConnection('127.0.0.1', server.port)
        conn.request('GET', '/')
        resp = conn.getresponse()
        assert (resp.status, resp.read()) == (200, b'served')
        conn.close()
    finally:
        server.stop()
        sock.close()
