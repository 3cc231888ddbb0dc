"""Generic volume groups (/groups) and group types (/group_types) over
HTTP: group types and their specs, a group's life cycle with its
volumes, members added and removed, delete with and without its
volumes, reset_status, the microversions and the quota (refusals and
races: test_group_refusals.py, test_group_races.py).

Nothing is mocked: the volumes are real files on the share.
"""

import os

from oslo_config import cfg
import pytest

from tests.functional import helpers
from tests.functional.volume import group_helpers as gh

CONF = cfg.CONF


@pytest.fixture
def admin_http(aio):
    return aio.http('admin', 'admin', version=gh.VERSION)


@pytest.fixture
def http(aio):
    return aio.http(version=gh.VERSION)


def test_group_types_and_their_specs(admin_http, http):
    created = gh.group_type(admin_http, description='consistent',
                            group_specs={'consistent_group_snapshot_enabled':
                                         '<is> False'})
    assert created['group_specs'] == {
        'consistent_group_snapshot_enabled': '<is> False'}
    path = '/group_types/%s' % created['id']
    # Readers see the type without its specs (administrators only).
    shown = http.get(path).json()['group_type']
    assert shown == {'id': created['id'], 'name': created['name'],
                     'description': 'consistent', 'is_public': True}
    resp = admin_http.put(path, json={'group_type': {
        'name': created['name'] + '-renamed', 'description': 'changed'}})
    assert resp.status_code == 200, resp.text
    assert resp.json()['group_type']['description'] == 'changed'

    specs = path + '/group_specs'
    resp = admin_http.post(specs, json={'group_specs': {'k1': 'v1',
                                                        'k2': 'v2'}})
    assert resp.status_code == 202, resp.text
    assert resp.json() == {'group_specs': {'k1': 'v1', 'k2': 'v2'}}
    resp = admin_http.put(specs + '/k1', json={'k1': 'v1b'})
    assert (resp.status_code, resp.json()) == (200, {'k1': 'v1b'})
    assert admin_http.get(specs + '/k1').json() == {'k1': 'v1b'}
    assert admin_http.get(specs).json()['group_specs'] == {
        'consistent_group_snapshot_enabled': '<is> False', 'k1': 'v1b',
        'k2': 'v2'}
    assert admin_http.delete(specs + '/k2').status_code == 202
    assert admin_http.get(specs + '/k2').status_code == 404
    assert http.get(specs).status_code == 403
    # A mismatch of the body and the URL.
    gh.error(admin_http.put(specs + '/k1', json={'k3': 'x'}), 400)

    # Private types: for administrators alone.
    private = gh.group_type(admin_http, is_public=False)
    names = [t['name'] for t in http.get('/group_types').json()[
        'group_types']]
    assert created['name'] + '-renamed' in names
    assert private['name'] not in names
    assert http.get('/group_types/%s' % private['id']).status_code == 404
    listed = admin_http.get('/group_types?is_public=false').json()
    listed = [t['id'] for t in listed['group_types']]
    assert private['id'] in listed and created['id'] not in listed
    both = admin_http.get('/group_types?is_public=None&sort=name:asc')
    assert {private['id'], created['id']} <= {
        t['id'] for t in both.json()['group_types']}

    assert admin_http.delete(path).status_code == 202
    assert admin_http.get(path).status_code == 404
    assert admin_http.delete('/group_types/%s' % private['id']
                             ).status_code == 202


def test_group_types_are_served_from_3_11(aio, admin_http):
    old = aio.http('admin', 'admin', version='3.10')
    assert old.get('/group_types').status_code == 404
    assert admin_http.get('/group_types').status_code == 200
    # No default_group_type is configured: Cinder's 404.
    gh.error(admin_http.get('/group_types/default'), 404)


def test_the_default_group_type(admin_http):
    created = gh.group_type(admin_http)
    # The API runs in this process: its option is this process's.
    CONF.set_override('default_group_type', created['name'])
    try:
        resp = admin_http.get('/group_types/default')
        assert resp.status_code == 200, resp.text
        assert resp.json()['group_type']['id'] == created['id']
    finally:
        CONF.clear_override('default_group_type')


def test_group_life_cycle(aio, admin_http, http, wait):
    gtype = gh.group_type(admin_http)
    vtype = gh.volume_type(admin_http)
    before = gh.usage(http.project)
    created = gh.group(http, gtype['id'], [vtype['name']], name=' first ',
                       description='two volumes')
    assert created['name'] == 'first'
    path = '/groups/%s' % created['id']
    group = gh.wait_status(http, path, 'group', 'available', wait)
    assert group['group_type'] == gtype['id']
    assert group['volume_types'] == [vtype['id']]
    assert group['replication_status'] == 'disabled'
    assert (group['group_snapshot_id'], group['source_group_id']) == (
        None, None)
    assert 'project_id' not in group
    assert admin_http.get(path).json()['group']['project_id'] == \
        http.project

    one = gh.volume(http, group['id'], vtype['id'], wait)
    two = gh.volume(http, group['id'], vtype['id'], wait)
    assert one['group_id'] == group['id']
    assert os.path.exists(aio.volume_path(one['id']))
    shown = http.get(path + '?list_volume=true').json()['group']
    assert sorted(shown['volumes']) == sorted([one['id'], two['id']])
    listed = http.get('/volumes/detail?group_id=%s' % group['id']).json()
    assert sorted(v['id'] for v in listed['volumes']) == sorted(
        [one['id'], two['id']])
    assert gh.usage(http.project) == dict(
        before, volumes=before['volumes'] + 2,
        gigabytes=before['gigabytes'] + 2, groups=before['groups'] + 1)

    # A volume of a group is deleted with its group, or leaves it first.
    gh.error(http.delete('/volumes/%s' % one['id']), 400)
    resp = http.put(path, json={'group': {'name': 'renamed',
                                          'remove_volumes': two['id']}})
    assert resp.status_code == 202, resp.text
    shown = http.get(path + '?list_volume=true').json()['group']
    assert (shown['name'], shown['volumes'], shown['status']) == (
        'renamed', [one['id']], 'available')
    assert http.get('/volumes/%s' % two['id']).json()['volume'][
        'group_id'] is None
    resp = http.put(path, json={'group': {'add_volumes': two['id']}})
    assert resp.status_code == 202, resp.text
    assert http.get('/volumes/%s' % two['id']).json()['volume'][
        'group_id'] == group['id']

    names = [g['name'] for g in http.get('/groups').json()['groups']]
    assert 'renamed' in names
    detail = http.get('/groups/detail').json()['groups']
    assert group['id'] in [g['id'] for g in detail]

    gh.error(gh.delete_group(http, group['id']), 400)
    resp = gh.delete_group(http, group['id'], delete_volumes=True)
    assert resp.status_code == 202, resp.text
    for volume in (one, two):
        gh.wait_gone(http, '/volumes/%s' % volume['id'], wait)
        assert not os.path.exists(aio.volume_path(volume['id']))
    gh.wait_gone(http, path, wait)
    assert gh.usage(http.project) == before


def test_an_empty_group_is_deleted_at_once(admin_http, http):
    gtype = gh.group_type(admin_http)
    vtype = gh.volume_type(admin_http)
    before = gh.usage(http.project)
    group = gh.group(http, gtype['id'], [vtype['id']])
    assert gh.usage(http.project)['groups'] == before['groups'] + 1
    resp = gh.delete_group(http, group['id'])
    assert resp.status_code == 202, resp.text
    assert http.get('/groups/%s' % group['id']).status_code == 404
    assert gh.usage(http.project) == before
    # A group type without groups goes.
    assert admin_http.delete('/group_types/%s' % gtype['id']
                             ).status_code == 202


def test_reset_status(aio, admin_http, http):
    gtype = gh.group_type(admin_http)
    vtype = gh.volume_type(admin_http)
    group = gh.group(http, gtype['id'], [vtype['id']])
    path = '/groups/%s' % group['id']
    for status in ('creating', 'available', 'error'):
        resp = admin_http.post(path + '/action', json={
            'reset_status': {'status': status.upper()}})
        assert resp.status_code == 202, resp.text
        assert http.get(path).json()['group']['status'] == status
    gh.error(admin_http.post(path + '/action', json={
        'reset_status': {'status': 'bogus'}}), 400)
    # Administrators only, from 3.20.
    assert http.post(path + '/action', json={
        'reset_status': {'status': 'available'}}).status_code == 403
    old = aio.http('admin', 'admin', version='3.19')
    assert old.post(path + '/action', json={
        'reset_status': {'status': 'available'}}).status_code == 404
    assert gh.delete_group(http, group['id']).status_code == 202


def test_groups_follow_the_microversion(aio, admin_http, http):
    def at(version):
        return aio.http(http.user, http.project, version=version)

    gtype = gh.group_type(admin_http)
    vtype = gh.volume_type(admin_http)
    group = gh.group(http, gtype['id'], [vtype['id']])
    path = '/groups/%s' % group['id']
    assert at('3.12').get(path).status_code == 404
    at_313 = at('3.13').get(path).json()['group']
    assert set(at_313) == {'id', 'name', 'description', 'status',
                           'availability_zone', 'created_at', 'group_type',
                           'volume_types'}
    at_314 = at('3.14').get(path).json()['group']
    assert set(at_314) - set(at_313) == {'group_snapshot_id',
                                         'source_group_id'}
    # list_volume is a parameter of 3.25.
    assert at('3.24').get(
        path + '?list_volume=true').status_code == 400
    assert gh.delete_group(http, group['id']).status_code == 202
    # A volume's group_id from 3.13.
    volume = helpers.create_volume(at('3.13'))
    assert volume['group_id'] is None
    assert 'group_id' not in helpers.create_volume(
        at('3.12'))
