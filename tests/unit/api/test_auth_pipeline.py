"""The auth strategy decides the pipeline: keystonemiddleware or noauth."""

import pytest
import webob
from oslo_config import cfg

from tether.api import auth
from tether.api.volume import app

CONF = cfg.CONF


@pytest.fixture
def keystone_app():
    CONF([], project='tether')
    CONF.set_override('auth_strategy', 'keystone')
    with pytest.raises(auth.ConfigurationError):
        app.build(CONF)  # registers [keystone_authtoken], then refuses
    CONF.set_override('www_authenticate_uri', 'http://127.0.0.1:5000/v3',
                      group='keystone_authtoken')
    try:
        yield app.build(CONF)
    finally:
        CONF.clear_override('www_authenticate_uri',
                            group='keystone_authtoken')
        CONF.clear_override('auth_strategy')


def test_keystone_without_settings_refuses_to_start():
    CONF([], project='tether')
    CONF.set_override('auth_strategy', 'keystone')
    try:
        with pytest.raises(auth.ConfigurationError,
                           match='www_authenticate_uri'):
            app.build(CONF)
    finally:
        CONF.clear_override('auth_strategy')


def test_keystone_rejects_a_request_without_token(keystone_app):
    resp = webob.Request.blank('/v3/p/volumes').get_response(keystone_app)
    assert resp.status_int == 401
    # keystonemiddleware says where to authenticate.
    assert resp.headers['WWW-Authenticate'] == \
        'Keystone uri="http://127.0.0.1:5000/v3"'


def test_keystone_serves_version_discovery_without_token(keystone_app):
    resp = webob.Request.blank('/').get_response(keystone_app)
    assert resp.status_int == 300
    assert resp.json['versions'][0]['version'] == '3.71'


def test_noauth_requires_user_and_project():
    CONF([], project='tether')
    CONF.set_override('auth_strategy', 'noauth')
    try:
        noauth_app = app.build(CONF)
        for token in (None, '', 'onlyuser', ':project', 'user:'):
            headers = {} if token is None else {'X-Auth-Token': token}
            resp = webob.Request.blank(
                '/v3/p/volumes', headers=headers).get_response(noauth_app)
            assert resp.status_int == 401, token
            assert 'X-Auth-Token' in resp.json['unauthorized']['message']
    finally:
        CONF.clear_override('auth_strategy')


def test_keystone_serves_the_openapi_description_without_token(keystone_app):
    resp = webob.Request.blank('/openapi.json').get_response(keystone_app)
    assert resp.status_int == 200
    assert resp.json['openapi'] == '3.1.0'
    assert '/v3/volumes' in resp.json['paths']
