"""/images/{image_id}/metadata over HTTP: the compute API's proxy to the
image API's properties of an image, served from 2.1 to 2.38 as Nova
serves it (a 404 from 2.39), against the aio's real Glance: list, show
a key, merge (POST), replace (PUT), set a key (PUT), delete a key; the
metadata_items quota; what Glance refuses.
"""

import uuid

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional import image_helpers

CONF = cfg.CONF
LAST = '2.38'
GONE = '2.39'
# Properties Glance 33 and openstacksdk give every uploaded image.
_UPLOAD_KEYS = ('os_glance', 'owner_specified')


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def metadata_quota():
    def set_limit(limit):
        CONF.set_override('metadata_items', limit, group='quota')
    yield set_limit
    CONF.clear_override('metadata_items', group='quota')


def _image(user, **properties):
    return image_helpers.upload(user.conn, b'data', allow_duplicates=True,
                                **properties)


def _properties(user, image_id):
    """The image's own properties as the image API shows them (less what
    every upload has)."""
    resp = user.conn.image.get('/images/%s' % image_id)
    assert resp.status_code == 200, resp.text
    base = {'id', 'name', 'status', 'visibility', 'protected', 'os_hidden',
            'checksum', 'os_hash_algo', 'os_hash_value', 'owner', 'size',
            'virtual_size', 'container_format', 'disk_format', 'created_at',
            'updated_at', 'tags', 'direct_url', 'min_ram', 'min_disk',
            'self', 'file', 'stores', 'schema', 'locations'}
    return {k: v for k, v in resp.json().items()
            if k not in base and not k.startswith(_UPLOAD_KEYS)}


def _mine(metadata):
    return {k: v for k, v in metadata.items()
            if not k.startswith(_UPLOAD_KEYS)}


def test_list_show_merge_replace_set_delete(cloud):
    user = cloud.project()
    image = _image(user, color='red', size_hint='small')
    http = user.compute(LAST)
    path = '/images/%s/metadata' % image.id

    resp = http.get(path)
    assert resp.status_code == 200, resp.text
    listed = resp.json()['metadata']
    assert _mine(listed) == {'color': 'red', 'size_hint': 'small'}
    # Nova's metadata of the image is the whole of its properties.
    assert listed == user.compute('2.35').get(
        '/images/%s' % image.id).json()['image']['metadata']
    resp = http.get(path + '/color')
    assert resp.json() == {'meta': {'color': 'red'}}

    # Merge: the keys given set, the others kept; the answer is all.
    resp = http.post(path, json={'metadata': {'color': 'blue',
                                              'shape': 'round'}})
    assert resp.status_code == 200, resp.text
    assert _mine(resp.json()['metadata']) == {
        'color': 'blue', 'shape': 'round', 'size_hint': 'small'}
    assert _properties(user, image.id) == _mine(resp.json()['metadata'])

    # Set one key (the body's key is the URL's).
    resp = http.put(path + '/shape', json={'meta': {'shape': 'square'}})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'meta': {'shape': 'square'}}
    assert _properties(user, image.id)['shape'] == 'square'

    # Delete one key: 204, gone from the image API.
    resp = http.delete(path + '/size_hint')
    assert (resp.status_code, resp.text) == (204, '')
    assert _properties(user, image.id) == {'color': 'blue',
                                           'shape': 'square'}
    for method in ('GET', 'DELETE'):
        resp = http.request(method, path + '/size_hint')
        assert resp.status_code == 404, resp.text
        assert 'size_hint' in sh.message(resp)

    # Replace: the image's properties become the body's, every other
    # one removed (what the upload set too, as Nova's replace does).
    resp = http.put(path, json={'metadata': {'kind': 'test'}})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'metadata': {'kind': 'test'}}
    assert http.get(path).json() == {'metadata': {'kind': 'test'}}
    resp = http.put(path, json={'metadata': {}})
    assert resp.status_code == 200, resp.text
    assert http.get(path).json() == {'metadata': {}}
    # The image is as it was otherwise.
    shown = user.conn.image.get_image(image.id)
    assert (shown.name, shown.status) == (image.name, 'active')


def test_refusals(cloud, metadata_quota):
    user = cloud.project()
    image = _image(user, color='red')
    http = user.compute(LAST)
    path = '/images/%s/metadata' % image.id
    before = _properties(user, image.id)
    # Bad bodies: 400 naming the problem.
    for method, url, body, word in (
            ('POST', path, {'metadata': {'a': 1}}, 'metadata'),
            ('POST', path, {'metadata': {'': 'x'}}, 'metadata'),
            ('POST', path, {'meta': {'a': 'b'}}, 'metadata'),
            ('PUT', path, {'metadata': {'a' * 256: 'x'}}, 'metadata'),
            ('PUT', path, {'metadata': {'a': 'x' * 256}}, 'metadata'),
            ('PUT', path + '/a', {'meta': {'a': 'b', 'c': 'd'}}, 'meta'),
            ('PUT', path + '/a', {'meta': {}}, 'meta'),
            ('PUT', path + '/a', {'metadata': {'a': 'b'}}, 'meta'),
            # The body's key is not the URL's (Nova's mismatch).
            ('PUT', path + '/a', {'meta': {'b': 'c'}}, 'URI mismatch'),
            # An attribute of the image is no metadata item.
            ('POST', path, {'metadata': {'name': 'x'}}, 'name'),
            ('PUT', path, {'metadata': {'min_ram': '5'}}, 'min_ram'),
            ('PUT', path + '/status', {'meta': {'status': 'x'}},
             'status')):
        resp = http.request(method, url, json=body)
        assert resp.status_code == 400, (method, url, body, resp.text)
        assert word in sh.message(resp), (word, resp.text)
    # The image API's reserved properties: its 403 (Nova's too).
    resp = http.post(path, json={'metadata': {'os_glance_x': 'y'}})
    assert resp.status_code == 403, resp.text
    assert _properties(user, image.id) == before
    # An attribute is no item to show or delete.
    for method in ('GET', 'DELETE'):
        resp = http.request(method, path + '/name')
        assert resp.status_code == 404, resp.text

    # Unknown images: 404 naming them, from every route.
    missing = str(uuid.uuid4())
    for image_id in (missing, 'not-an-image', '%2E%2E'):
        other = '/images/%s/metadata' % image_id
        for method, url, body in (
                ('GET', other, None), ('GET', other + '/a', None),
                ('POST', other, {'metadata': {'a': 'b'}}),
                ('PUT', other, {'metadata': {'a': 'b'}}),
                ('PUT', other + '/a', {'meta': {'a': 'b'}}),
                ('DELETE', other + '/a', None)):
            resp = http.request(method, url, json=body)
            assert resp.status_code == 404, (method, url, resp.text)
    assert missing in sh.message(http.get('/images/%s/metadata' % missing))

    # The metadata_items quota, on all the image's properties after the
    # change: 403, nothing changed.
    count = len(http.get(path).json()['metadata'])
    metadata_quota(count + 1)
    resp = http.post(path, json={'metadata': {'a': '1', 'b': '2'}})
    assert resp.status_code == 403, resp.text
    assert 'metadata_items' in sh.message(resp)
    resp = http.put(path + '/a', json={'meta': {'a': '1'}})
    assert resp.status_code == 200, resp.text
    resp = http.put(path + '/b', json={'meta': {'b': '1'}})
    assert resp.status_code == 403, resp.text
    # Setting a key there is within it.
    resp = http.put(path + '/a', json={'meta': {'a': '2'}})
    assert resp.status_code == 200, resp.text
    resp = http.put(path, json={'metadata': {str(i): 'x'
                                             for i in range(count + 2)}})
    assert resp.status_code == 403, resp.text
    assert _properties(user, image.id) == dict(before, a='2')
    metadata_quota(-1)
    resp = http.post(path, json={'metadata': {str(i): 'x'
                                              for i in range(count + 2)}})
    assert resp.status_code == 200, resp.text


def test_other_projects_and_readers(cloud):
    user = cloud.project()
    image = _image(user, color='red')
    path = '/images/%s/metadata' % image.id
    before = _properties(user, image.id)
    # Another project: the image API shows it nothing (404).
    them = cloud.project().compute(LAST)
    for method, url, body in (
            ('GET', path, None), ('GET', path + '/color', None),
            ('POST', path, {'metadata': {'a': 'b'}}),
            ('PUT', path, {'metadata': {'a': 'b'}}),
            ('PUT', path + '/color', {'meta': {'color': 'b'}}),
            ('DELETE', path + '/color', None)):
        resp = them.request(method, url, json=body)
        assert resp.status_code == 404, (method, url, resp.text)
    # A reader of the project reads, and the image API refuses it the
    # changes (403, Nova's answer).
    reader = user.compute(LAST, roles=['reader'])
    assert reader.get(path + '/color').json() == {'meta': {'color': 'red'}}
    for method, url, body in (
            ('POST', path, {'metadata': {'a': 'b'}}),
            ('PUT', path, {'metadata': {'a': 'b'}}),
            ('PUT', path + '/color', {'meta': {'color': 'b'}}),
            ('DELETE', path + '/color', None)):
        resp = reader.request(method, url, json=body)
        assert resp.status_code == 403, (method, url, resp.text)
    # A public image of another project: read by all, changed by none
    # but its owner (and administrators).
    admin = user.aio.admin()
    public = image_helpers.upload(admin, b'public', visibility='public',
                                  color='green')
    try:
        url = '/images/%s/metadata' % public.id
        assert them.get(url + '/color').json() == {'meta': {
            'color': 'green'}}
        resp = them.post(url, json={'metadata': {'color': 'pink'}})
        assert resp.status_code == 403, resp.text
        assert admin.image.get_image(public.id).properties['color'] == \
            'green'
    finally:
        admin.image.delete_image(public.id)
    assert _properties(user, image.id) == before


def test_concurrent_deletes_of_a_key(cloud):
    """Two deletes of one key at once: no 5xx, the key gone, the others
    kept. The loser is a 404 when the image API had already removed the
    key (its 409), else both succeed (the image API reads and writes an
    image's properties whole: concurrent changes of one image are its
    to order)."""
    user = cloud.project()
    image = _image(user, a='1', b='2')
    path = '/images/%s/metadata' % image.id
    sessions = [user.compute(LAST) for _ in range(2)]
    results = helpers.race([
        lambda: sessions[0].delete(path + '/a'),
        lambda: sessions[1].delete(path + '/a')])
    assert sorted(r.status_code for r in results) in ([204, 204],
                                                      [204, 404]), results
    assert _properties(user, image.id) == {'b': '2'}


def test_the_proxy_is_gone_from_2_39(cloud):
    user = cloud.project()
    image = _image(user, color='red')
    http = user.compute(GONE)
    path = '/images/%s/metadata' % image.id
    for method, url, body in (
            ('GET', path, None), ('GET', path + '/color', None),
            ('POST', path, {'metadata': {'a': 'b'}}),
            ('PUT', path, {'metadata': {'a': 'b'}}),
            ('PUT', path + '/color', {'meta': {'color': 'b'}}),
            ('DELETE', path + '/color', None)):
        resp = http.request(method, url, json=body)
        assert resp.status_code == 404, (method, url, resp.text)
        assert '2.38' in sh.message(resp), resp.text
    assert _properties(user, image.id) == {'color': 'red'}
    # At 2.36 to 2.38 the metadata is served, not the image itself.
    http = user.compute('2.36')
    assert http.get(path + '/color').status_code == 200
    assert http.get('/images/%s' % image.id).status_code == 404


def test_openstacksdk_image_metadata(cloud):
    """openstacksdk's compute image metadata calls (at 2.1)."""
    user = cloud.project()
    image = _image(user, color='red')
    compute = user.conn.compute
    found = compute.fetch_image_metadata(image.id)
    assert found.metadata['color'] == 'red'
    compute.set_image_metadata(image.id, shape='round')
    assert _properties(user, image.id) == {'color': 'red', 'shape': 'round'}
    compute.delete_image_metadata(image.id, ['color'])
    assert _properties(user, image.id) == {'shape': 'round'}
