"""How one service finds and calls the other's API with Keystone tokens.

The integration job (tests/integration/) runs these paths against a real
Keystone; here each rule on its own.
"""

import http.server
import json
import threading

import pytest
import webob
from keystoneauth1 import loading as ks_loading
from oslo_config import cfg

from tether.api import auth
from tether import clients
from tether import conf  # noqa: F401 - registers [volume]
from tether import rpc

CONF = cfg.CONF

# X-Service-Catalog as keystonemiddleware passes it (the v2 format), for a
# user of project "p-user": the endpoint has that project in its URL.
USER_CATALOG = [
    {'type': 'block-storage', 'name': 'tether-volume', 'endpoints': [
        {'region': 'RegionOne',
         'publicURL': 'http://volume.example.org/v3/p-user',
         'internalURL': 'http://volume.internal/v3/p-user'}]},
    {'type': 'compute', 'name': 'tether-compute', 'endpoints': [
        {'region': 'RegionOne',
         'publicURL': 'http://compute.example.org/v2.1'}]},
]


_OPTIONS = ('endpoint_override', 'os_region_name', 'auth_type')


@pytest.fixture
def peer():
    """The volume peer with none of _OPTIONS set; what was set before (an
    in-process aio of the functional tests in the same worker sets the
    endpoint) is set again afterwards."""
    CONF([], project='tether')
    before = {name: CONF.volume[name] for name in _OPTIONS}
    for name in _OPTIONS:
        CONF.clear_override(name, group='volume')
    yield clients.Peer('volume', 'block_storage', '3')
    for name in _OPTIONS:
        CONF.clear_override(name, group='volume')
        if before[name] != CONF.volume[name]:
            CONF.set_override(name, before[name], group='volume')


def test_a_caller_s_endpoint_comes_from_the_caller_s_catalog(peer):
    # Not from the service's own catalog, where the URL would name the
    # service's project.
    CONF.set_override('os_region_name', 'RegionOne', group='volume')
    assert peer._user_endpoint(USER_CATALOG) == \
        'http://volume.example.org/v3/p-user'


def test_endpoint_override_wins_over_the_catalog(peer):
    CONF.set_override('endpoint_override', 'http://127.0.0.1:8776/v3',
                      group='volume')
    assert peer._user_endpoint(USER_CATALOG) == 'http://127.0.0.1:8776/v3'


def test_the_service_s_calls_carry_its_token_as_service_token(peer):
    CONF.set_override('auth_type', 'admin_token', group='volume')
    CONF.register_opts(ks_loading.get_auth_plugin_conf_options('admin_token'),
                       group='volume')
    CONF.set_override('token', 'service-token', group='volume')
    CONF.set_override('endpoint', 'http://volume.example.org/v3',
                      group='volume')
    try:
        session = peer._keystone_session()
        headers = session.auth.get_headers(session)
    finally:
        CONF.clear_override('token', group='volume')
        CONF.clear_override('endpoint', group='volume')
    assert headers == {'X-Auth-Token': 'service-token',
                       'X-Service-Token': 'service-token'}


def _context_of(environ):
    seen = {}

    def app(environ, start_response):
        seen['context'] = environ[auth.CONTEXT_KEY]
        return webob.Response()(environ, start_response)
    webob.Request.blank('/', environ=environ).get_response(
        auth.KeystoneContext(app))
    return seen['context']


def test_the_request_context_holds_the_caller_s_catalog():
    context = _context_of({
        'HTTP_X_IDENTITY_STATUS': 'Confirmed',
        'HTTP_X_USER_ID': 'u', 'HTTP_X_PROJECT_ID': 'p-user',
        'HTTP_X_ROLES': 'member,reader',
        'HTTP_X_SERVICE_CATALOG': json.dumps(USER_CATALOG)})
    assert context.service_catalog == USER_CATALOG


@pytest.mark.parametrize('header', [None, 'not json', '{"a": 1}'])
def test_no_readable_catalog_is_an_empty_one(header):
    environ = {'HTTP_X_IDENTITY_STATUS': 'Confirmed',
               'HTTP_X_USER_ID': 'u', 'HTTP_X_PROJECT_ID': 'p'}
    if header is not None:
        environ['HTTP_X_SERVICE_CATALOG'] = header
    assert _context_of(environ).service_catalog == []


def test_a_message_carries_the_caller_s_catalog_of_the_peers(peer):
    """A manager acting with the caller's token calls the peer at the
    caller's endpoint too (tether-compute makes the volume of a server
    booted from an image): the catalog travels with the context, without
    the entries of services tether does not call."""
    identity = {'type': 'identity', 'name': 'keystone', 'endpoints': [
        {'region': 'RegionOne', 'publicURL': 'http://keystone/v3'}]}
    context = _context_of({
        'HTTP_X_IDENTITY_STATUS': 'Confirmed',
        'HTTP_X_USER_ID': 'u', 'HTTP_X_PROJECT_ID': 'p-user',
        'HTTP_X_ROLES': 'member,reader', 'HTTP_X_AUTH_TOKEN': 'user-token',
        'HTTP_X_SERVICE_CATALOG': json.dumps(USER_CATALOG + [identity])})
    serializer = rpc.RequestContextSerializer()
    # Through JSON, as oslo.messaging sends it.
    sent = json.loads(json.dumps(serializer.serialize_context(context)))
    received = serializer.deserialize_context(sent)
    assert received.service_catalog == USER_CATALOG
    assert received.auth_token == 'user-token'
    CONF.set_override('os_region_name', 'RegionOne', group='volume')
    assert peer._user_endpoint(received.service_catalog) == \
        'http://volume.example.org/v3/p-user'


def test_a_message_without_a_catalog_is_read_as_before():
    """A message of a release that sent no catalog."""
    received = rpc.RequestContextSerializer().deserialize_context(
        {'user': 'u', 'project_id': 'p', 'roles': ['member']})
    assert received.service_catalog == []


class _VersionServer:
    """The peer's version discovery on 127.0.0.1 (a stand-in for the
    volume API, which is not running here): ``GET /`` answers a version
    document, after ``release`` is set for the first request;
    ``missing`` makes every path a 404."""

    def __init__(self, missing=False):
        self.arrived = threading.Event()
        self.release = threading.Event()
        self.requests = 0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests += 1
                if server.requests == 1:
                    server.arrived.set()
                    server.release.wait(10)
                if missing:
                    self.send_response(404)
                    self.end_headers()
                    return
                href = 'http://127.0.0.1:%d/v3/' % server.port
                body = json.dumps({'versions': [{
                    'id': 'v3.0', 'status': 'CURRENT', 'min_version': '3.0',
                    'version': '3.71',
                    'links': [{'rel': 'self', 'href': href}]}]}).encode()
                self.send_response(200)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                     Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever,
                         daemon=True).start()

    def close(self):
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def noauth_peer(peer):
    CONF.set_override('auth_strategy', 'noauth')
    yield peer
    CONF.clear_override('auth_strategy')


def _serve(peer, **kwargs):
    server = _VersionServer(**kwargs)
    CONF.set_override('endpoint_override',
                      'http://127.0.0.1:%d/v3' % server.port, group='volume')
    return server


def test_no_thread_takes_a_proxy_another_is_still_making(noauth_peer):
    """openstacksdk makes a connection's proxy on its first use, without
    a lock: a second thread that took the same connection while the
    first was in its version discovery could make the proxy again from
    what the first had half set (the image API's 404 for a version
    document under /v2/, a 500 in CI). A call for the same token while
    another's discovery is in flight makes its own connection."""
    server = _serve(noauth_peer)
    proxies = [None, None]

    def call(i):
        proxies[i] = noauth_peer.with_token('u:p')
    try:
        first = threading.Thread(target=call, args=(0,))
        first.start()
        assert server.arrived.wait(10)
        call(1)
        server.release.set()
        first.join(10)
    finally:
        server.close()
    assert proxies[0] is not None and proxies[1] is not None
    assert proxies[0]._connection is not proxies[1]._connection
    # Afterwards the token's proxy is kept: no more discovery.
    assert noauth_peer.with_token('u:p') in proxies


def test_a_peer_that_cannot_be_discovered_is_unavailable(noauth_peer):
    server = _serve(noauth_peer, missing=True)
    server.release.set()

    class Unavailable(Exception):
        pass
    try:
        with pytest.raises(Unavailable) as raised:
            noauth_peer.reach(Unavailable, 'u:p')
    finally:
        server.close()
    assert 'version discovery document' in str(raised.value)
