"""How one service finds and calls the other's API with Keystone tokens.

The integration job (tests/integration/) runs these paths against a real
Keystone; here each rule on its own.
"""

import json

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
