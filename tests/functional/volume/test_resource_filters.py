"""GET /resource_filters (3.33): the filters each list takes, and each
list takes every filter it names (at 3.33 and at the latest version);
openstacksdk and the openstack CLI read it."""

import pytest

from tests.functional import cli

LATEST = '3.71'
# The list each resource names, and a value of the filter's kind.
LISTS = {'volume': '/volumes/detail', 'snapshot': '/snapshots/detail',
         'attachment': '/attachments', 'volume_type': '/types'}
VALUES = {'bootable': 'true', 'multiattach': 'false', 'is_public': 'true',
          'metadata': '{"k": "v"}'}


def test_the_filters_of_each_list(aio):
    http = aio.http(version='3.33')
    resp = http.get('/resource_filters')
    assert resp.status_code == 200, resp.text
    found = {f['resource']: f['filters']
             for f in resp.json()['resource_filters']}
    assert set(found) == set(LISTS)
    assert found['volume'] == sorted([
        'availability_zone', 'bootable', 'group_id', 'metadata',
        'multiattach', 'name', 'status', 'user_id'])
    assert found['snapshot'] == ['metadata', 'name', 'status', 'volume_id']
    assert found['volume_type'] == ['is_public']
    assert set(found['attachment']) >= {'volume_id', 'instance_id',
                                        'status', 'attach_status'}
    # One resource; a name of none is an empty list.
    one = http.get('/resource_filters?resource=snapshot').json()
    assert one == {'resource_filters': [
        {'resource': 'snapshot', 'filters': found['snapshot']}]}
    assert http.get('/resource_filters?resource=backup').json() == {
        'resource_filters': []}
    assert http.get('/resource_filters?color=red').status_code == 400


@pytest.mark.parametrize('version', ['3.33', LATEST])
def test_each_list_takes_every_filter_it_names(aio, version):
    http = aio.http(version=version)
    for entry in http.get('/resource_filters').json()['resource_filters']:
        for name in entry['filters']:
            value = VALUES.get(name, 'x')
            resp = http.get(LISTS[entry['resource']],
                            params={name: value})
            assert resp.status_code == 200, (entry['resource'], name,
                                             resp.text)
    # And refuses one it does not name.
    assert http.get('/volumes/detail?size=1').status_code == 400


def test_before_3_33_there_is_none(aio):
    assert aio.http(version='3.32').get('/resource_filters') \
        .status_code == 404


def test_openstacksdk_and_the_cli(aio, tmp_path):
    conn = aio.sdk()
    found = {f.resource: f.filters
             for f in conn.block_storage.resource_filters()}
    assert found['volume_type'] == ['is_public']
    [only] = list(conn.block_storage.resource_filters(resource='snapshot'))
    assert only.filters == found['snapshot']
    user = cli.CLI(aio, tmp_path, 'u1', 'p1')
    listed = user.json('--os-volume-api-version', '3.33', 'block', 'storage',
                       'resource', 'filter', 'list')
    assert {r['Resource'] for r in listed} == set(found)
    shown = user.json('--os-volume-api-version', '3.33', 'block', 'storage',
                      'resource', 'filter', 'show', 'volume')
    assert shown['Filters'] == found['volume']
