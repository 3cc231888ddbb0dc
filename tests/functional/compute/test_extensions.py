"""The compute API's /extensions over HTTP and openstacksdk: Nova's
entries of what tether serves, listed and shown by alias, in the shape
Tempest's schema of Nova's answer requires."""

import datetime

import pytest

from tether.api.compute import extensions

KEYS = {'alias', 'description', 'links', 'name', 'namespace', 'updated'}


def test_list_and_show(aio):
    http = aio.compute_http(roles=['reader'])
    resp = http.get('/extensions')
    assert resp.status_code == 200, resp.text
    listed = resp.json()['extensions']
    for ext in listed:
        assert set(ext) == KEYS and ext['links'] == [], ext
        datetime.datetime.fromisoformat(ext['updated'])
    aliases = [e['alias'] for e in listed]
    assert aliases == [entry[0] for entry in extensions.EXTENSIONS]
    for served in ('os-server-groups', 'os-aggregates',
                   'os-simple-tenant-usage', 'os-keypairs', 'OS-SCH-HNT'):
        assert served in aliases
    # Only what tether serves whole.
    for partial in ('OS-DCF', 'os-personality', 'os-multiple-create',
                    'os-admin-actions', 'os-networks', 'os-cells'):
        assert partial not in aliases
    shown = http.get('/extensions/os-server-groups')
    assert shown.status_code == 200, shown.text
    assert shown.json() == {'extension': next(
        e for e in listed if e['alias'] == 'os-server-groups')}
    # Another alias, by another caller.
    assert aio.compute_http().get('/extensions/OS-EXT-AZ').status_code == 200


@pytest.mark.parametrize('alias', ['os-networks', 'nosuch', 'x' * 300])
def test_an_alias_not_served_is_404(aio, alias):
    resp = aio.compute_http().get('/extensions/' + alias)
    assert resp.status_code == 404, resp.text
    assert 'could not be found' in resp.json()['itemNotFound']['message']


def test_openstacksdk(aio):
    aliases = [e.alias for e in aio.sdk().compute.extensions()]
    assert 'os-simple-tenant-usage' in aliases
