"""The /volumes API over HTTP: life cycle, lists, metadata, microversions
(pages: test_volume_paging.py; refusals: test_volume_refusals.py)."""

import os
import uuid

import pytest

from tests.functional import helpers
from tests.functional.helpers import GiB

LATEST = '3.71'


def _project():
    return 'project-' + uuid.uuid4().hex[:8]


# Life cycle ---------------------------------------------------------------

def test_create_update_extend_delete(aio, wait):
    conn = aio.sdk()
    volume = conn.block_storage.create_volume(size=2, name='life',
                                              description='first')
    assert volume.status == 'creating'
    volume = conn.block_storage.wait_for_status(volume, 'available',
                                                interval=0.05, wait=30)
    path = aio.volume_path(volume.id)
    assert helpers.virtual_size(path) == (2 * GiB, 'raw')
    assert volume.size == 2 and volume.name == 'life'
    assert volume.volume_type == '__DEFAULT__'

    conn.block_storage.update_volume(volume, name='renamed',
                                     description='second')
    shown = conn.block_storage.get_volume(volume.id)
    assert (shown.name, shown.description) == ('renamed', 'second')

    conn.block_storage.extend_volume(volume, 3)
    wait(lambda: conn.block_storage.get_volume(volume).size == 3,
         what='extend to 3G')
    assert conn.block_storage.get_volume(volume).status == 'available'
    assert helpers.virtual_size(path) == (3 * GiB, 'raw')

    conn.block_storage.delete_volume(volume)
    conn.block_storage.wait_for_delete(volume, interval=0.05, wait=30)
    assert not os.path.exists(path)
    assert helpers.db_volume(volume.id) is None


def test_extend_to_smaller_or_equal_size_is_refused(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, size=2, wait_for=wait)
    action = '/volumes/%s/action' % volume['id']
    for new_size in (1, 2):
        resp = http.post(action, json={'os-extend': {'new_size': new_size}})
        assert resp.status_code == 400, resp.text
        assert 'new size %sG' % new_size in resp.json()['badRequest'][
            'message']
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert (shown['status'], shown['size']) == ('available', 2)
    assert helpers.virtual_size(aio.volume_path(volume['id']))[0] == 2 * GiB


def test_show_list_and_detail(aio, wait):
    http = aio.http()
    a = helpers.create_volume(http, name='a', wait_for=wait)
    b = helpers.create_volume(http, name='b', wait_for=wait)
    other = aio.http()
    helpers.create_volume(other, name='a')

    shown = http.get('/volumes/%s' % a['id'])
    assert shown.status_code == 200
    body = shown.json()['volume']
    assert body['id'] == a['id'] and body['status'] == 'available'
    assert body['os-vol-tenant-attr:tenant_id'] == http.project
    # Admin-only attributes stay admin-only.
    assert 'os-vol-host-attr:host' not in body

    listed = http.get('/volumes').json()['volumes']
    assert [v['id'] for v in listed] == [b['id'], a['id']]
    assert set(listed[0]) == {'id', 'name', 'links'}
    detail = http.get('/volumes/detail').json()['volumes']
    assert [v['id'] for v in detail] == [b['id'], a['id']]
    assert all(v['status'] == 'available' for v in detail)


def test_list_filters(aio, wait):
    http = aio.http()
    one = helpers.create_volume(http, name='one', wait_for=wait,
                                metadata={'tier': 'gold', 'x': '1'})
    two = helpers.create_volume(http, name='two', wait_for=wait,
                                metadata={'tier': 'silver'})
    three = helpers.create_volume(http, name='one', wait_for=wait)

    def ids(query):
        resp = http.get('/volumes/detail?' + query)
        assert resp.status_code == 200, resp.text
        return {v['id'] for v in resp.json()['volumes']}

    assert ids('name=one') == {one['id'], three['id']}
    assert ids('name=nothing') == set()
    assert ids('status=available') == {one['id'], two['id'], three['id']}
    assert ids('status=error') == set()
    assert ids("metadata={'tier': 'gold'}") == {one['id']}
    assert ids('metadata={"tier": "silver"}') == {two['id']}
    assert ids("metadata={'tier': 'gold', 'x': '2'}") == set()
    assert ids("name=one&metadata={'x': '1'}") == {one['id']}
    resp = http.get('/volumes?metadata=notadict')
    assert resp.status_code == 400
    assert 'metadata' in resp.json()['badRequest']['message']

    # The SDK sends the same filters (metadata as the text of a dict, as
    # cinderclient does; the SDK does not encode a dict itself).
    conn = aio.sdk(http.user, http.project)
    assert {v.id for v in conn.block_storage.volumes(name='two')} == \
        {two['id']}
    assert {v.id for v in conn.block_storage.volumes(
        properties=str({'tier': 'gold'}))} == {one['id']}


def test_all_tenants_for_admins_only(aio, wait):
    member = aio.http()
    mine = helpers.create_volume(member, name='mine')
    stranger = aio.http()
    theirs = helpers.create_volume(stranger, name='theirs')
    admin = aio.http('admin', 'admin')

    def ids(http, query):
        resp = http.get('/volumes/detail?' + query)
        assert resp.status_code == 200, resp.text
        return {v['id'] for v in resp.json()['volumes']}

    everything = ids(admin, 'all_tenants=1')
    assert {mine['id'], theirs['id']} <= everything
    assert ids(admin, 'all_tenants=true&project_id=%s' % stranger.project) \
        == {theirs['id']}
    # Without all_tenants an admin sees the admin project only.
    assert theirs['id'] not in ids(admin, '')
    # A member's all_tenants is ignored: no other project leaks.
    assert ids(member, 'all_tenants=1') == {mine['id']}
    assert ids(member, 'all_tenants=1&project_id=%s' % stranger.project) \
        == {mine['id']}
    conn = aio.sdk(member.user, member.project)
    assert {v.id for v in conn.block_storage.volumes(all_projects=True)} \
        == {mine['id']}
    admin_conn = aio.admin()
    assert {mine['id'], theirs['id']} <= {
        v.id for v in admin_conn.block_storage.volumes(all_projects=True)}
    # Summary follows the same rule.
    summary = member.get('/volumes/summary?all_tenants=1',
                         headers={'OpenStack-API-Version': 'volume 3.12'})
    assert summary.json()['volume-summary'] == {'total_count': 1,
                                                'total_size': 1}


def test_volume_metadata(aio, wait):
    http = aio.http()
    conn = aio.sdk(http.user, http.project)
    volume = helpers.create_volume(http, metadata={'a': '1'}, wait_for=wait)
    path = '/volumes/%s/metadata' % volume['id']

    conn.block_storage.set_volume_metadata(volume['id'], b='2', c='3')
    assert http.get(path).json() == {'metadata': {'a': '1', 'b': '2',
                                                  'c': '3'}}
    conn.block_storage.delete_volume_metadata(volume['id'], keys=['b'])
    assert http.get(path).json() == {'metadata': {'a': '1', 'c': '3'}}
    got = conn.block_storage.get_volume_metadata(volume['id'])
    assert got.metadata == {'a': '1', 'c': '3'}

    # POST merges, PUT replaces, and both answer with the whole set.
    resp = http.post(path, json={'metadata': {'c': '30', 'd': '4'}})
    assert resp.status_code == 200
    assert resp.json() == {'metadata': {'a': '1', 'c': '30', 'd': '4'}}
    resp = http.put(path, json={'metadata': {'only': 'this'}})
    assert resp.json() == {'metadata': {'only': 'this'}}
    assert http.get(path).json() == {'metadata': {'only': 'this'}}

    item = path + '/only'
    assert http.get(item).json() == {'meta': {'only': 'this'}}
    resp = http.put(item, json={'meta': {'only': 'that'}})
    assert resp.status_code == 200 and resp.json() == {
        'meta': {'only': 'that'}}
    resp = http.put(item, json={'meta': {'other': 'x'}})
    assert resp.status_code == 400
    assert 'other' in resp.json()['badRequest']['message']
    assert http.delete(item).status_code == 200
    assert http.get(item).status_code == 404
    assert http.delete(item).status_code == 404
    assert http.get(path).json() == {'metadata': {}}

    resp = http.post(path, json={'metadata': {'k': 'v' * 256}})
    assert resp.status_code == 400
    assert 'metadata/k' in resp.json()['badRequest']['message']
    # Another project sees none of it.
    other = aio.http()
    other_path = '/volumes/%s/metadata' % volume['id']
    assert other.get(other_path).status_code == 404
    assert other.post(other_path,
                      json={'metadata': {'x': 'y'}}).status_code == 404
    assert other.delete(other_path + '/only').status_code == 404


def test_volume_summary(aio, wait):
    http = aio.http()
    helpers.create_volume(http, size=2, metadata={'k': 'v1'})
    helpers.create_volume(http, size=3, metadata={'k': 'v2'})
    assert http.get('/volumes/summary').status_code == 404
    resp = http.get('/volumes/summary',
                    headers={'OpenStack-API-Version': 'volume 3.11'})
    assert resp.status_code == 404
    resp = http.get('/volumes/summary',
                    headers={'OpenStack-API-Version': 'volume 3.12'})
    assert resp.status_code == 200
    assert resp.json() == {'volume-summary': {'total_count': 2,
                                              'total_size': 5}}
    resp = http.get('/volumes/summary',
                    headers={'OpenStack-API-Version': 'volume 3.36'})
    assert resp.json()['volume-summary']['metadata'] == {'k': ['v1', 'v2']}


def test_other_projects_volume_is_not_found(aio, wait):
    owner = aio.http()
    volume = helpers.create_volume(owner, wait_for=wait)
    vpath = '/volumes/%s' % volume['id']
    other = aio.http()
    assert other.get(vpath).status_code == 404
    assert other.put(vpath, json={'volume': {'name': 'x'}}).status_code \
        == 404
    assert other.delete(vpath).status_code == 404
    assert other.post(vpath + '/action',
                      json={'os-extend': {'new_size': 5}}).status_code == 404
    shown = owner.get(vpath).json()['volume']
    assert (shown['name'], shown['size'], shown['status']) == (
        None, 1, 'available')


def test_reset_status_is_admin_only(aio, wait):
    member = aio.http()
    volume = helpers.create_volume(member, wait_for=wait)
    action = '/volumes/%s/action' % volume['id']
    body = {'os-reset_status': {'status': 'error'}}
    resp = member.post(action, json=body)
    assert resp.status_code == 403, resp.text
    assert member.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'

    admin = aio.http('admin', 'admin')
    resp = admin.post(action, json=body)
    assert resp.status_code == 202, resp.text
    assert member.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'error'
    # An admin of the SDK puts it back.
    aio.admin().block_storage.reset_volume_status(volume['id'], 'available',
                                                  None, None)
    assert member.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'
    resp = admin.post(action, json={'os-reset_status': {'status': 'bogus'}})
    assert resp.status_code == 400
    assert 'os-reset_status/status' in resp.json()['badRequest']['message']


# Microversions --------------------------------------------------------------

@pytest.mark.parametrize('requested,status,served', [
    (None, 200, 'volume 3.0'),
    ('3.0', 200, 'volume 3.0'),
    ('3.45', 200, 'volume 3.45'),
    ('latest', 200, 'volume ' + LATEST),
    ('3.99', 406, None),
    ('2.0', 406, None),
    ('3.abc', 400, None),
    ('garbage', 400, None),
])
def test_microversion_negotiation(aio, requested, status, served):
    http = aio.http()
    headers = {}
    if requested:
        headers['OpenStack-API-Version'] = 'volume ' + requested
    resp = http.get('/volumes', headers=headers)
    assert resp.status_code == status, resp.text
    if served:
        assert resp.headers['OpenStack-API-Version'] == served
    else:
        assert requested in resp.text


def test_version_discovery_names_the_latest_version(aio):
    import requests
    resp = requests.get(aio.root_url + '/')
    assert resp.status_code == 300
    (version,) = resp.json()['versions']
    assert (version['min_version'], version['version']) == ('3.0', LATEST)
