"""The /volumes API over HTTP: life cycle, lists, metadata, errors, pages."""

import os
import uuid

import pytest

from tests.functional import helpers
from tests.functional.helpers import GiB
from tether.db.volume import volume as db_volumes

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


# Bad input ------------------------------------------------------------------

@pytest.mark.parametrize('body,field', [
    ({'volume': {}}, 'size'),
    ({'volume': {'size': 0}}, 'volume/size'),
    ({'volume': {'size': 'abc'}}, 'volume/size'),
    ({'volume': {'size': -1}}, 'volume/size'),
    ({'volume': {'size': 1.5}}, 'volume/size'),
    ({'volume': {'size': 1, 'colour': 'red'}}, 'colour'),
    ({'volume': {'size': 1, 'name': 'n' * 256}}, 'volume/name'),
    ({'volume': {'size': 1, 'metadata': {'k': 1}}}, 'volume/metadata'),
    ({'volume': {'size': 1, 'snapshot_id': 'not-a-uuid'}}, 'snapshot_id'),
    ({'volume': {'size': 1,
                 'backup_id': '4b3fc81c-7b0e-4a4e-9d4a-1f0a4bd3b6a1'}},
     'backup_id'),
    ({'volumes': {'size': 1}}, 'volume'),
    ([{'volume': {'size': 1}}], 'body'),
])
def test_create_with_a_bad_body_names_the_field(aio, body, field):
    http = aio.http()
    resp = http.post('/volumes', json=body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']
    assert helpers.project_volumes(http.project) == []


def test_create_with_a_body_that_is_not_json(aio):
    http = aio.http()
    for data in ('{"volume": {"size": 1}', 'size=1', ''):
        resp = http.post('/volumes', data=data,
                         headers={'Content-Type': 'application/json'})
        assert resp.status_code == 400, resp.text
        message = resp.json()['badRequest']['message']
        assert 'body' in message.lower(), message
    assert helpers.project_volumes(http.project) == []


def test_create_with_unknown_volume_type(aio):
    http = aio.http()
    resp = http.post('/volumes', json={'volume': {'size': 1,
                                                  'volume_type': 'nope'}})
    assert resp.status_code == 404
    assert 'nope' in resp.json()['itemNotFound']['message']
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}


@pytest.mark.parametrize('body,words', [
    ({'os-frobnicate': {}}, 'os-frobnicate'),
    ({'os-extend': {'new_size': 3}, 'os-reset_status': {'status': 'error'}},
     'exactly one key'),
    ({}, 'exactly one key'),
    (['os-extend'], 'exactly one key'),
    ({'os-extend': {}}, 'new_size'),
    ({'os-extend': {'new_size': 'big'}}, 'os-extend/new_size'),
    ({'os-extend': {'new_size': 0}}, 'os-extend/new_size'),
    ({'os-extend': {'new_size': 3, 'force': True}}, 'force'),
    ({'os-extend': None}, 'os-extend'),
])
def test_bad_actions_name_the_problem(aio, wait, body, words):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    resp = http.post('/volumes/%s/action' % volume['id'], json=body)
    assert resp.status_code == 400, resp.text
    assert words in resp.json()['badRequest']['message']
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert (shown['status'], shown['size']) == ('available', 1)


def test_update_with_a_bad_body(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http)
    vpath = '/volumes/%s' % volume['id']
    resp = http.put(vpath, json={'volume': {'size': 5}})
    assert resp.status_code == 400
    assert 'size' in resp.json()['badRequest']['message']
    resp = http.put(vpath, json={'volume': {'name': 7}})
    assert resp.status_code == 400
    assert 'volume/name' in resp.json()['badRequest']['message']


def test_bad_list_queries(aio):
    http = aio.http()
    for query, words in (('limit=abc', 'limit'),
                         ('sort=bogus:asc', 'bogus'),
                         ('sort=name:sideways', 'sort'),
                         ('sort_key=bogus', 'bogus'),
                         ('sort_dir=up', 'sort_dir'),
                         ('marker=%s' % uuid.uuid4(), 'marker'),
                         ('colour=red', 'colour'),
                         ('with_count=true', 'with_count')):
        resp = http.get('/volumes?' + query)
        assert resp.status_code == 400, (query, resp.text)
        assert words in resp.json()['badRequest']['message'], query


# Pagination -----------------------------------------------------------------

@pytest.fixture(scope='module')
def many_volumes(aio):
    """250 volume rows of one project, written through the DB layer."""
    project = _project()
    ctx = helpers.admin_context()
    ids = []
    for i in range(250):
        row = db_volumes.create(ctx, {
            'id': str(uuid.uuid4()), 'project_id': project,
            'user_id': 'pager', 'name': 'vol-%03d' % ((i * 37) % 250),
            'size': 1, 'availability_zone': 'nova', 'status': 'available',
            'attach_status': 'detached', 'bootable': False,
            'multiattach': False, 'volume_type_id': _default_type_id(ctx)})
        ids.append(row.id)
    return project, ids


def _default_type_id(ctx):
    from tether.db.volume import volume_type as volume_types
    return volume_types.get_by_name_or_id(ctx, '__DEFAULT__').id


def _walk(http, path):
    """Follow volumes_links from ``path``; every page's volumes in order."""
    pages = []
    url = http.base + path
    while url:
        resp = http.session.get(url)
        assert resp.status_code == 200, resp.text
        body = resp.json()
        pages.append(body['volumes'])
        links = body.get('volumes_links') or []
        nxt = [link['href'] for link in links if link['rel'] == 'next']
        url = nxt[0] if nxt else None
        assert len(pages) < 10, 'pagination does not end'
    return pages


def test_pagination_walks_every_volume_once(aio, many_volumes):
    project, ids = many_volumes
    http = aio.http(project=project)
    pages = _walk(http, '/volumes/detail?limit=100')
    assert [len(p) for p in pages] == [100, 100, 50]
    listed = [v for page in pages for v in page]
    assert sorted(v['id'] for v in listed) == sorted(ids)
    keys = [(v['created_at'], v['id']) for v in listed]
    assert keys == sorted(keys, reverse=True)

    # The summary list pages the same way, in the same order.
    summary = [v['id'] for page in _walk(http, '/volumes?limit=100')
               for v in page]
    assert summary == [v['id'] for v in listed]


def test_pagination_with_sort_and_marker(aio, many_volumes):
    project, ids = many_volumes
    http = aio.http(project=project)
    pages = _walk(http, '/volumes?limit=60&sort=name:asc')
    assert [len(p) for p in pages] == [60, 60, 60, 60, 10]
    names = [v['name'] for page in pages for v in page]
    assert names == sorted(names) and len(set(names)) == 250
    marker = pages[0][-1]['id']
    resp = http.get('/volumes?limit=5&sort=name:asc&marker=%s' % marker)
    assert [v['name'] for v in resp.json()['volumes']] == names[60:65]
    resp = http.get('/volumes?sort_key=name&sort_dir=desc&limit=3')
    assert [v['name'] for v in resp.json()['volumes']] == \
        ['vol-249', 'vol-248', 'vol-247']
    resp = http.get('/volumes?limit=5&offset=10&sort=name:asc')
    assert [v['name'] for v in resp.json()['volumes']] == names[10:15]
    # The next page starts after the last one shown: the offset is spent.
    (link,) = resp.json()['volumes_links']
    assert 'offset' not in link['href']
    resp = http.session.get(link['href'])
    assert [v['name'] for v in resp.json()['volumes']] == names[15:20]
    # Another project's marker is unknown here.
    other = aio.http()
    resp = other.get('/volumes?marker=%s' % ids[0])
    assert resp.status_code == 400
    assert ids[0] in resp.json()['badRequest']['message']


def test_pagination_through_the_sdk(aio, many_volumes):
    project, ids = many_volumes
    conn = aio.sdk(project=project)
    seen = [v.id for v in conn.block_storage.volumes(limit=100)]
    assert len(seen) == 250 and sorted(seen) == sorted(ids)
    seen = [v.id for v in conn.block_storage.volumes(details=False,
                                                     limit=100)]
    assert len(seen) == 250 and set(seen) == set(ids)


def test_with_count(aio, many_volumes):
    project, _ids = many_volumes
    http = aio.http(project=project, version='3.45')
    resp = http.get('/volumes?with_count=true&limit=10')
    assert resp.status_code == 200
    body = resp.json()
    assert body['count'] == 250 and len(body['volumes']) == 10
    resp = http.get('/volumes/detail?with_count=true&name=vol-007')
    assert resp.json()['count'] == 1
    assert 'count' not in http.get('/volumes?limit=1').json()


def test_pagination_over_null_sort_values(aio):
    """Sorting by a key that some volumes lack (NULL) loses no volume.

    Regression: oslo.db's paginate_query drops the comparison on a NULL
    marker value, so a walk by name lost every named volume after an
    unnamed marker (or every unnamed one, descending).
    """
    project = _project()
    ctx = helpers.admin_context()
    type_id = _default_type_id(ctx)
    rows = {}
    for i in range(9):
        row = db_volumes.create(ctx, {
            'id': str(uuid.uuid4()), 'project_id': project,
            'user_id': 'sorter', 'availability_zone': 'nova',
            'name': 'v%d' % (i % 4) if i % 3 else None,
            'description': None if i % 2 else 'd%d' % i,
            'size': 1 + i % 2, 'status': 'available',
            'attach_status': 'detached', 'bootable': bool(i % 2),
            'multiattach': False, 'volume_type_id': type_id})
        rows[row.id] = row
    http = aio.http(project=project)
    for key in ('name', 'description', 'updated_at', 'bootable', 'size'):
        for direction in ('asc', 'desc'):
            pages = _walk(http, '/volumes?limit=2&sort=%s:%s'
                          % (key, direction))
            ids = [v['id'] for page in pages for v in page]
            assert sorted(ids) == sorted(rows), (key, direction)
            # NULL is the smallest value; the id breaks ties.

            def order(volume_id):
                value = getattr(rows[volume_id], key)
                return (value is not None,
                        0 if value is None else value, volume_id)
            assert ids == sorted(rows, key=order,
                                 reverse=direction == 'desc'), (key,
                                                                direction)


def test_project_in_the_url_must_be_the_callers(aio, wait):
    http = aio.http()
    mine = helpers.create_volume(http)
    other = aio.http()
    theirs = helpers.create_volume(other)
    url = aio.volume_url + '/%s/volumes' % other.project
    resp = http.session.get(url)
    assert resp.status_code == 400, resp.text
    assert other.project in resp.json()['badRequest']['message']
    resp = http.session.post(url, json={'volume': {'size': 1}})
    assert resp.status_code == 400
    resp = http.session.get(url + '/%s' % theirs['id'])
    assert resp.status_code == 400
    assert helpers.usage(other.project)['volumes'] == (1, 0)
    assert helpers.usage(http.project)['volumes'] == (1, 0)
    # Without a project in the URL (3.67 style) the token's project counts.
    resp = http.session.get(aio.volume_url + '/volumes')
    assert [v['id'] for v in resp.json()['volumes']] == [mine['id']]


@pytest.mark.parametrize('method,path,body,words', [
    # Bytes that are not UTF-8, in the path and in the query string.
    ('GET', '/volumes/%E9', None, 'UTF-8'),
    ('GET', '/volumes?name=%E9', None, 'UTF-8'),
    ('GET', '/volumes?%E9=1', None, 'UTF-8'),
    # Digits beyond the database's integers, as a string and a number.
    ('POST', '/volumes', '{"volume": {"size": "%s"}}' % ('9' * 40),
     'volume/size'),
    ('POST', '/volumes', '{"volume": {"size": "2147483648"}}',
     'volume/size'),
    ('POST', '/volumes', '{"volume": {"size": %s}}' % ('9' * 40),
     'volume/size'),
    # JSON that decodes but cannot be stored, or nests without end.
    ('POST', '/volumes',
     '{"volume": {"size": 1, "name": "\\ud800"}}', 'body'),
    ('POST', '/volumes', '[' * 100000, 'body'),
], ids=['path-latin1', 'query-value-latin1', 'query-key-latin1',
        'size-40-digit-string', 'size-string-over-int32',
        'size-40-digit-number', 'lone-surrogate', 'deep-nesting'])
def test_hostile_input_is_a_400_not_a_500(aio, method, path, body, words):
    http = aio.http()
    resp = http.request(method, path, data=body,
                        headers={'Content-Type': 'application/json'})
    assert resp.status_code == 400, resp.text
    assert words in resp.json()['badRequest']['message']
    assert helpers.project_volumes(http.project) == []


def test_hostile_input_on_actions_and_metadata(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    vpath = '/volumes/%s' % volume['id']
    for method, path, body in (
            ('GET', vpath + '/metadata/%E9', None),
            ('POST', vpath + '/action',
             '{"os-extend": {"new_size": "%s"}}' % ('9' * 40)),
            ('POST', vpath + '/metadata',
             '{"metadata": {"k": "\\udfff"}}')):
        resp = http.request(method, path, data=body,
                            headers={'Content-Type': 'application/json'})
        assert resp.status_code == 400, (path, resp.text)
    shown = http.get(vpath).json()['volume']
    assert (shown['status'], shown['size'], shown['metadata']) == (
        'available', 1, {})
