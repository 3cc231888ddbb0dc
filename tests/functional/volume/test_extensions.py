"""GET /extensions over HTTP and openstacksdk: what tether serves, in
the shape Tempest's schema of Cinder's answer requires."""

import datetime

import pytest

from tether.api.volume import extensions

KEYS = {'alias', 'description', 'links', 'name', 'updated'}


def test_list_extensions_shape(aio):
    # A reader, as Tempest asks.
    resp = aio.http(roles=['reader']).get('/extensions')
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert list(body) == ['extensions']
    listed = body['extensions']
    for ext in listed:
        assert set(ext) == KEYS, ext
        assert ext['links'] == []
        assert all(isinstance(ext[k], str) for k in KEYS - {'links'})
        datetime.datetime.fromisoformat(ext['updated'])
    aliases = [e['alias'] for e in listed]
    assert aliases == extensions.aliases()
    assert 'os-volume-type-access' in aliases
    assert 'os-volume-transfer' in aliases
    assert 'backups' in aliases
    # Only what tether serves whole.
    for partial in ('os-hosts', 'os-services', 'os-admin-actions',
                    'os-volume-actions'):
        assert partial not in aliases
    # The same at any microversion.
    resp = aio.http(version='3.71').get('/extensions')
    assert resp.json() == body


def test_sdk_lists_extensions(aio):
    names = {e.name for e in aio.sdk().block_storage.extensions()}
    assert {'VolumeTypeAccess', 'TypesManage', 'Quotas'} <= names


@pytest.mark.parametrize('query', ['?limit=1', '?alias=x'])
def test_query_is_refused(aio, query):
    resp = aio.http().get('/extensions' + query)
    assert resp.status_code == 400, resp.text
    assert query[1:].split('=')[0] in resp.json()['badRequest']['message']
