"""Pages of /volumes over HTTP: every volume once, sorted, after a
marker, with a count, over null sort values (250 rows written through
the DB layer)."""

import uuid

import pytest

from tests.functional import helpers
from tether.db.volume import volume as db_volumes

LATEST = '3.71'


def _project():
    return 'project-' + uuid.uuid4().hex[:8]


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
