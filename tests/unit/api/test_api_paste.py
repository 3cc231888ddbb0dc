"""api-paste.ini: the shipped pipelines, the choice by auth_strategy, and
how the file is found ([DEFAULT]api_paste_config)."""

import pathlib
import textwrap

# Registers [keystone_authtoken], which the tests set before a keystone
# pipeline is loaded (tether imports it only then).
from keystonemiddleware import auth_token  # noqa: F401
import pytest
import webob
from oslo_config import cfg

from tether.api.compute import app as compute_app
from tether.api import pipeline
from tether.api.volume import app as volume_app

CONF = cfg.CONF
ROOT = pathlib.Path(__file__).resolve().parents[3]
SAMPLE = ROOT / 'etc' / 'tether' / 'api-paste.ini'
KEYSTONE_URI = 'http://127.0.0.1:5000/v3'

# (app module, a path that needs a token, the version document's path)
APIS = {
    'volume': (volume_app, '/v3/p/volumes', '/v3'),
    'compute': (compute_app, '/v2.1/p/servers', '/v2.1'),
}

# A volume API pipeline of an operator's own: without version discovery
# (so /v3 asks for a token too), and behind a TLS-terminating proxy
# (oslo.middleware's http_proxy_to_wsgi makes links https).
CUSTOM = """
[composite:osapi_volume]
use = call:tether.api.pipeline:pipeline_factory
noauth = request_id faultwrap {versions} noauth volume_app

[filter:http_proxy_to_wsgi]
paste.filter_factory = {proxy_factory}
enable_proxy_headers_parsing = true

[filter:volume_versions]
paste.filter_factory = tether.api.volume.app:versions_factory

[app:volume_app]
paste.app_factory = tether.api.volume.app:app_factory

[filter:request_id]
paste.filter_factory = tether.api.wsgi:request_id_factory

[filter:faultwrap]
paste.filter_factory = tether.api.wsgi:faultwrap_factory

[filter:noauth]
paste.filter_factory = tether.api.auth:noauth_factory
"""


PROXY_FACTORY = 'oslo_middleware.http_proxy_to_wsgi:HTTPProxyToWSGI.factory'


def custom_paste(versions='http_proxy_to_wsgi volume_versions'):
    return textwrap.dedent(CUSTOM).format(versions=versions,
                                          proxy_factory=PROXY_FACTORY)


@pytest.fixture
def config_dir(tmp_path):
    """CONF read from tmp_path/tether.conf (noauth); returns a writer for
    that file's [DEFAULT] lines."""
    conf_file = tmp_path / 'tether.conf'

    def write(*lines):
        conf_file.write_text('[DEFAULT]\nauth_strategy = noauth\n' +
                             ''.join(line + '\n' for line in lines))
        CONF(['--config-file', str(conf_file)], project='tether')
    write()
    try:
        yield write
    finally:
        CONF.clear_override('auth_strategy')
        CONF.clear_override('www_authenticate_uri',
                            group='keystone_authtoken')
        CONF([], project='tether')


def get(app, path, **headers):
    return webob.Request.blank(path, headers=headers).get_response(app)


def test_packaged_copy_is_the_sample():
    packaged = pathlib.Path(pipeline.packaged_file())
    assert packaged.read_bytes() == SAMPLE.read_bytes(), (
        'tether/api/api-paste.ini (the copy tether falls back to) differs '
        'from etc/tether/api-paste.ini: copy the sample over it.')


@pytest.mark.parametrize('strategy', ['noauth', 'keystone'])
@pytest.mark.parametrize('api', sorted(APIS))
def test_sample_loads_each_pipeline(config_dir, api, strategy):
    config_dir('api_paste_config = %s' % SAMPLE)
    module, protected, version_doc = APIS[api]
    CONF.set_override('auth_strategy', strategy)
    CONF.set_override('www_authenticate_uri', KEYSTONE_URI,
                      group='keystone_authtoken')
    app = module.build(CONF)

    # Version discovery needs no token, whatever the strategy.
    resp = get(app, version_doc)
    assert resp.status_int == 200
    request_id = resp.headers['X-OpenStack-Request-ID']
    assert request_id.startswith('req-')
    if api == 'compute':
        assert resp.headers['X-Compute-Request-ID'] == request_id
    else:
        assert 'X-Compute-Request-ID' not in resp.headers

    # The rest does: each strategy says so in its own way.
    resp = get(app, protected)
    assert resp.status_int == 401
    assert resp.headers['X-OpenStack-Request-ID'].startswith('req-')
    if strategy == 'noauth':
        assert 'X-Auth-Token: <user>:<project>' in \
            resp.json['unauthorized']['message']
        assert 'WWW-Authenticate' not in resp.headers
        # A noauth token passes on to the router.
        resp = get(app, protected + '/nothing/here', **{
            'X-Auth-Token': 'demo:p'})
        assert resp.status_int == 404
        assert resp.json['itemNotFound']['message']
    else:
        # keystonemiddleware's answer, with its default settings.
        assert resp.headers['WWW-Authenticate'] == \
            'Keystone uri="%s"' % KEYSTONE_URI


def test_default_falls_back_to_the_packaged_file(config_dir):
    if CONF.find_file('api-paste.ini'):
        pytest.skip('an api-paste.ini is installed on this machine')
    assert pipeline.find_paste_file(CONF) == pipeline.packaged_file()
    resp = get(volume_app.build(CONF), '/v3/p/volumes')
    assert resp.status_int == 401


def test_file_beside_the_config_file_is_used(config_dir, tmp_path):
    (tmp_path / 'api-paste.ini').write_text(custom_paste())
    config_dir()
    assert pipeline.find_paste_file(CONF) == str(tmp_path / 'api-paste.ini')
    app = volume_app.build(CONF)
    resp = get(app, '/v3', **{'X-Forwarded-Proto': 'https'})
    assert resp.status_int == 200
    links = resp.json['versions'][0]['links']
    assert links[1]['href'].startswith('https://localhost')


def test_a_pipeline_without_a_middleware(config_dir, tmp_path):
    path = tmp_path / 'no-versions.ini'
    path.write_text(custom_paste(versions=''))
    config_dir('api_paste_config = %s' % path)
    app = volume_app.build(CONF)
    # No version discovery in front of noauth: /v3 needs a token now,
    # and the API's router has no version document.
    resp = get(app, '/v3')
    assert resp.status_int == 401
    resp = get(app, '/v3', **{'X-Auth-Token': 'u:p'})
    assert resp.status_int == 404


@pytest.mark.parametrize('value', ['missing-paste.ini',
                                   '/nonexistent/api-paste.ini'])
def test_a_missing_file_stops_the_api(config_dir, value):
    config_dir('api_paste_config = %s' % value)
    with pytest.raises(pipeline.ConfigurationError) as err:
        volume_app.build(CONF)
    message = str(err.value)
    assert '[DEFAULT]api_paste_config = %s' % value in message
    assert ('no such file' in message if value.startswith('/')
            else 'not found beside the configuration files' in message)


def test_a_missing_app_stops_the_api(config_dir, tmp_path):
    path = tmp_path / 'api-paste.ini'
    path.write_text(custom_paste())
    config_dir()
    with pytest.raises(pipeline.ConfigurationError,
                       match="osapi_compute from %s: LookupError: No "
                             "section 'osapi_compute'" % path):
        compute_app.build(CONF)


def test_auth_strategy_without_a_pipeline_stops_the_api(config_dir,
                                                        tmp_path):
    (tmp_path / 'api-paste.ini').write_text(custom_paste())
    config_dir()
    CONF.set_override('auth_strategy', 'keystone')
    with pytest.raises(pipeline.ConfigurationError,
                       match=r'no pipeline for \[DEFAULT\]auth_strategy = '
                             r'keystone in its composite \(it has: noauth\)'):
        volume_app.build(CONF)


@pytest.mark.parametrize('broken,error', [
    # A pipeline names a filter no section defines.
    (lambda text: text.replace('faultwrap {', 'fualtwrap {'),
     "No section 'fualtwrap'"),
    # A factory that does not exist.
    (lambda text: text.replace('wsgi:faultwrap_factory',
                               'wsgi:fault_wrap_factory'),
     "AttributeError: .*fault_wrap_factory"),
    (lambda text: text.replace('tether.api.wsgi:request_id',
                               'tether.api.wsgy:request_id'),
     "ModuleNotFoundError: No module named 'tether.api.wsgy'"),
    # Not an ini file.
    (lambda text: 'pipeline = noauth volume_app\n' + text,
     'MissingSectionHeaderError'),
], ids=['unknown-filter', 'unknown-factory', 'unknown-module', 'not-ini'])
def test_a_broken_file_stops_the_api(config_dir, tmp_path, broken, error):
    (tmp_path / 'api-paste.ini').write_text(
        broken(textwrap.dedent(CUSTOM)).format(
            versions='volume_versions', proxy_factory=PROXY_FACTORY))
    config_dir()
    with pytest.raises(pipeline.ConfigurationError) as err:
        volume_app.build(CONF)
    assert str(err.value).startswith(
        'Cannot load the WSGI app osapi_volume from %s: '
        % (tmp_path / 'api-paste.ini'))
    assert err.match(error)
