"""/images over HTTP: the compute API's proxy to the image API, served
from 2.1 to 2.35 as Nova serves it (a 404 from 2.36), against the aio's
real Glance.

Every call is the image API's with the caller's token: what a project
sees, deletes and misses is what Glance lets it. The keys, statuses and
links are Nova's; the filters are Nova's, translated to Glance's query.
The metadata routes are in test_image_metadata_proxy.py.
"""

import datetime
import time
import uuid

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import image_helpers

CONF = cfg.CONF
LAST = '2.35'
GONE = '2.36'
DETAIL_KEYS = {'id', 'name', 'links', 'minRam', 'minDisk', 'metadata',
               'created', 'updated', 'status', 'progress',
               'OS-EXT-IMG-SIZE:size'}
TIME_FORMAT = '%Y-%m-%dT%H:%M:%SZ'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _upload(user, data=b'image data', **attrs):
    # Names may repeat, and have a ":" (which openstacksdk's look-up of
    # the name first would send the image API as an operator).
    return image_helpers.upload(user.conn, data, allow_duplicates=True,
                                **attrs)


def _glance(user, image_id):
    """The image as the image API answers the user (properties at the
    top), or None when it answers 404."""
    resp = user.conn.image.get('/images/%s' % image_id)
    if resp.status_code == 404:
        return None
    assert resp.status_code == 200, resp.text
    return resp.json()


def _follow(http, href):
    """GET a link of the compute API's (under the session's project)."""
    assert href.startswith(http.base + '/'), (href, http.base)
    return http.get(href[len(http.base):])


def _ids(resp):
    assert resp.status_code == 200, resp.text
    return [image['id'] for image in resp.json()['images']]


def test_show_list_and_delete_through_the_proxy(cloud):
    user = cloud.project()
    http = user.compute(LAST)
    server_id = str(uuid.uuid4())
    image = _upload(user, b'x' * 4096, min_ram=64, min_disk=1,
                    instance_uuid=server_id, image_type='snapshot',
                    auto_disk_config='false', purpose='tests')
    resp = http.get('/images/%s' % image.id)
    assert resp.status_code == 200, resp.text
    shown = resp.json()['image']
    assert set(shown) == DETAIL_KEYS | {'server', 'OS-DCF:diskConfig'}
    assert (shown['id'], shown['name'], shown['minRam'], shown['minDisk'],
            shown['status'], shown['progress'],
            shown['OS-EXT-IMG-SIZE:size'], shown['OS-DCF:diskConfig']) == (
        image.id, image.name, 64, 1, 'ACTIVE', 100, 4096, 'MANUAL')
    # The image's properties, and none of the image API's attributes.
    glance = _glance(user, image.id)
    assert shown['metadata']['purpose'] == 'tests'
    assert shown['metadata']['instance_uuid'] == server_id
    assert not set(shown['metadata']) & {'status', 'size', 'owner',
                                         'visibility', 'min_ram', 'name'}
    assert set(shown['metadata']) == set(glance) - {
        'id', 'name', 'status', 'visibility', 'protected', 'os_hidden',
        'checksum', 'os_hash_algo', 'os_hash_value', 'owner', 'size',
        'virtual_size', 'container_format', 'disk_format', 'created_at',
        'updated_at', 'tags', 'direct_url', 'min_ram', 'min_disk', 'self',
        'file', 'stores', 'schema', 'locations'}
    for key in ('created', 'updated'):
        datetime.datetime.strptime(shown[key], TIME_FORMAT)
    assert shown['created'] == glance['created_at']
    # Links: the compute API's own (with the project of the URL), and
    # the image API's URL of the image, without its version.
    self_link, bookmark, alternate = shown['links']
    assert self_link['rel'] == 'self'
    assert self_link['href'].endswith(
        '/v2.1/%s/images/%s' % (user.project, image.id))
    assert bookmark['rel'] == 'bookmark'
    assert bookmark['href'].endswith('/%s/images/%s' % (user.project,
                                                        image.id))
    assert '/v2.1/' not in bookmark['href']
    assert alternate == {
        'rel': 'alternate', 'type': 'application/vnd.openstack.image',
        'href': '%s/images/%s' % (user.aio.image_url.rstrip('/'),
                                  image.id)}
    assert _follow(http, self_link['href']).status_code == 200
    assert shown['server']['id'] == server_id
    assert [link['rel'] for link in shown['server']['links']] == [
        'self', 'bookmark']
    assert shown['server']['links'][0]['href'].endswith(
        '/%s/servers/%s' % (user.project, server_id))

    # The list: id, name and the links; the detail: as the show.
    resp = http.get('/images')
    listed = {i['id']: i for i in resp.json()['images']}
    assert listed[image.id] == {'id': image.id, 'name': image.name,
                                'links': shown['links']}
    assert 'images_links' not in resp.json()
    detail = {i['id']: i for i in http.get('/images/detail').json()[
        'images']}
    assert detail[image.id] == shown

    # Another project sees neither it nor its list entry, and cannot
    # delete it.
    them = cloud.project().compute(LAST)
    assert image.id not in _ids(them.get('/images'))
    assert image.id not in _ids(them.get('/images/detail'))
    for method in ('GET', 'DELETE'):
        resp = them.request(method, '/images/%s' % image.id)
        assert resp.status_code == 404, resp.text
        assert image.id in sh.message(resp)
    assert _glance(user, image.id) is not None

    # Delete: 204, gone from the image API.
    resp = http.delete('/images/%s' % image.id)
    assert (resp.status_code, resp.text) == (204, '')
    assert _glance(user, image.id) is None
    for method in ('GET', 'DELETE'):
        resp = http.request(method, '/images/%s' % image.id)
        assert resp.status_code == 404, resp.text


def test_statuses_and_progress(cloud):
    user = cloud.project()
    http = user.compute(LAST)
    queued = user.conn.image.create_image(
        name='queued-' + uuid.uuid4().hex[:6], disk_format='raw',
        container_format='bare')
    shown = http.get('/images/%s' % queued.id).json()['image']
    assert (shown['status'], shown['progress'],
            shown['OS-EXT-IMG-SIZE:size']) == ('SAVING', 25, 0)
    # A status Nova does not know (deactivated): UNKNOWN, 0.
    image = _upload(user)
    admin = user.aio.admin()
    resp = admin.image.post('/images/%s/actions/deactivate' % image.id)
    assert resp.status_code == 204, resp.text
    shown = http.get('/images/%s' % image.id).json()['image']
    assert (shown['status'], shown['progress']) == ('UNKNOWN', 0)
    # auto_disk_config true: AUTO; none: no key; no server: no key.
    auto = _upload(user, auto_disk_config='True')
    shown = http.get('/images/%s' % auto.id).json()['image']
    assert shown['OS-DCF:diskConfig'] == 'AUTO'
    assert 'server' not in shown
    plain = http.get('/images/%s' % queued.id).json()['image']
    assert 'OS-DCF:diskConfig' not in plain
    # openstacksdk's compute images (it asks at 2.1) read the same.
    found = user.conn.compute.get_image(auto.id)
    assert (found.status, found.progress, found.size) == ('ACTIVE', 100,
                                                          len(b'image data'))


def test_filters(cloud):
    user = cloud.project()
    http = user.compute(LAST)
    server_id = str(uuid.uuid4())
    tag = uuid.uuid4().hex[:6]
    snap = _upload(user, name='snap:%s' % tag, instance_uuid=server_id,
                   image_type='snapshot', min_ram=128, min_disk=2,
                   color='red')
    backup = _upload(user, name='backup-%s' % tag, instance_uuid=server_id,
                     image_type='backup')
    plain = _upload(user, name='plain-%s' % tag, min_ram=128)
    queued = user.conn.image.create_image(
        name='queued-%s' % tag, disk_format='raw', container_format='bare')
    mine = {snap.id, backup.id, plain.id, queued.id}

    def found(query):
        return set(_ids(http.get('/images?' + query))) & mine

    def found_detail(query):
        return set(_ids(http.get('/images/detail?' + query))) & mine

    # A ":" in a name is no operator of the image API's.
    assert found('name=snap:%s' % tag) == {snap.id}
    assert found('name=plain-%s' % tag) == {plain.id}
    assert found('name=in:x') == set()
    # Nova's statuses, upper case (and the image API's, lower).
    assert found('status=ACTIVE') == {snap.id, backup.id, plain.id}
    assert found('status=active') == {snap.id, backup.id, plain.id}
    assert found('status=QUEUED') == {queued.id}
    # A server: its id, or its URL.
    assert found('server=%s' % server_id) == {snap.id, backup.id}
    url = 'http://compute.example.org/v2.1/%s/servers/%s' % (
        user.project, server_id)
    assert found_detail('server=' + url) == {snap.id, backup.id}
    assert found('type=snapshot') == {snap.id}
    assert found_detail('type=backup') == {backup.id}
    assert found('minRam=128') == {snap.id, plain.id}
    assert found('minDisk=2') == {snap.id}
    assert found('property-color=red') == {snap.id}
    assert found('type=snapshot&minRam=128&minDisk=2') == {snap.id}
    # changes-since: what changed at or after the time.
    time.sleep(1.1)
    since = datetime.datetime.now(datetime.timezone.utc).strftime(
        TIME_FORMAT)
    assert found('changes-since=' + since) == set()
    user.conn.image.update_image(plain.id, color='blue')
    assert found('changes-since=' + since) == {plain.id}
    assert found('changes-since=%s&property-color=blue' % since) == {
        plain.id}
    assert found('changes-since=2000-01-01T00:00:00Z') == mine
    # Unknown parameters are ignored, as Nova does.
    assert found('color=red&sort_key=name') == mine
    # Filters the proxy refuses, naming them.
    for query, word in (('minRam=abc', 'minRam'), ('minDisk=-1', 'minDisk'),
                        ('changes-since=yesterday', 'changes-since'),
                        ('limit=x', 'limit'), ('limit=-1', 'limit'),
                        ('property-status=active', 'property-status'),
                        ('name=a&name=b', 'name')):
        for path in ('/images?', '/images/detail?'):
            resp = http.get(path + query)
            assert resp.status_code == 400, (query, resp.text)
            assert word in sh.message(resp), (query, resp.text)


def test_pages(cloud):
    user = cloud.project()
    http = user.compute(LAST)
    tag = uuid.uuid4().hex[:6]
    made = [_upload(user, name='page-%s' % tag).id for _ in range(5)]
    for path in ('/images', '/images/detail'):
        seen, pages = [], 0
        url = '%s%s?name=page-%s&limit=2' % (http.base, path, tag)
        while url:
            resp = _follow(http, url)
            assert resp.status_code == 200, resp.text
            body = resp.json()
            assert len(body['images']) <= 2
            seen += [i['id'] for i in body['images']]
            links = body.get('images_links')
            url = links[0]['href'] if links else None
            if url:
                assert links[0]['rel'] == 'next'
                assert 'limit=2' in url and 'name=page-' in url
                assert url.split('?')[0].endswith(
                    '/v2.1/%s%s' % (user.project, path))
            pages += 1
        # The image API's order (newest first), every image once; the
        # last full page links to an empty one.
        assert seen == list(reversed(made))
        assert pages == 3
    resp = http.get('/images?name=page-%s&limit=1&marker=%s' % (tag,
                                                                made[-1]))
    assert _ids(resp) == [made[-2]]
    # The image API pages at most [DEFAULT] osapi_max_limit, as Nova's
    # [api] max_limit.
    CONF.set_override('osapi_max_limit', 3)
    try:
        resp = http.get('/images/detail?name=page-%s&limit=10' % tag)
        assert _ids(resp) == list(reversed(made))[:3]
        assert 'marker=%s' % made[2] in resp.json()['images_links'][0][
            'href']
    finally:
        CONF.clear_override('osapi_max_limit')
    # A marker the image API does not know: its 400.
    marker = str(uuid.uuid4())
    resp = http.get('/images?marker=%s' % marker)
    assert resp.status_code == 400, resp.text
    assert marker in sh.message(resp)
    # openstacksdk pages through the compute API's list as well.
    listed = [i.id for i in user.conn.compute.images(name='page-%s' % tag)]
    assert listed == list(reversed(made))


def test_refusals(cloud):
    user = cloud.project()
    http = user.compute(LAST)
    missing = str(uuid.uuid4())
    # Unknown ids (a UUID, a name, a path in disguise): 404, no image
    # API path but the image's.
    for image_id in (missing, 'invalid-name', '%2E%2E%2Fimages',
                     'x%3Fname%3Dy', 'a%2Ffile'):
        for method in ('GET', 'DELETE'):
            resp = http.request(method, '/images/%s' % image_id)
            assert resp.status_code == 404, (image_id, method, resp.text)
    resp = http.get('/images/%s' % missing)
    assert missing in sh.message(resp)
    # Another project's public image: shown and listed, but the image
    # API lets no one else delete it (403, Nova's answer too).
    admin = user.aio.admin()
    public = image_helpers.upload(admin, b'public', visibility='public')
    try:
        resp = http.get('/images/%s' % public.id)
        assert resp.status_code == 200, resp.text
        assert public.id in _ids(http.get('/images'))
        resp = http.delete('/images/%s' % public.id)
        assert resp.status_code == 403, resp.text
        assert admin.image.get_image(public.id).status == 'active'
    finally:
        admin.image.delete_image(public.id)
    # A protected image is the image API's to refuse: 403, kept.
    protected = _upload(user, is_protected=True)
    resp = http.delete('/images/%s' % protected.id)
    assert resp.status_code == 403, resp.text
    assert _glance(user, protected.id)['status'] == 'active'
    user.conn.image.update_image(protected.id, is_protected=False)
    # A reader: the image API lets it read, not delete.
    image = _upload(user)
    reader = user.compute(LAST, roles=['reader'])
    assert reader.get('/images/%s' % image.id).status_code == 200
    resp = reader.delete('/images/%s' % image.id)
    assert resp.status_code == 403, resp.text
    assert _glance(user, image.id) is not None


def test_the_proxy_is_gone_from_2_36(cloud):
    user = cloud.project()
    image = _upload(user)
    http = user.compute(GONE)
    for method, path in (('GET', '/images'), ('GET', '/images/detail'),
                         ('GET', '/images/%s' % image.id),
                         ('DELETE', '/images/%s' % image.id)):
        resp = http.request(method, path)
        assert resp.status_code == 404, (method, path, resp.text)
        assert '2.35' in sh.message(resp), resp.text
    assert _glance(user, image.id)['status'] == 'active'
    # 2.1 (and the legacy v2 endpoint's) serve it.
    assert user.compute('2.1').get('/images/%s' % image.id).status_code \
        == 200


def test_openstacksdk_compute_images(cloud):
    user = cloud.project()
    image = _upload(user, name='sdk-' + uuid.uuid4().hex[:6],
                    purpose='sdk')
    found = user.conn.compute.find_image(image.name, ignore_missing=False)
    assert found.id == image.id
    shown = user.conn.compute.get_image(image.id)
    assert (shown.name, shown.status, shown.min_ram) == (image.name,
                                                         'ACTIVE', 0)
    assert image.id in [i.id for i in user.conn.compute.images()]
    assert image.id in [i.id for i in user.conn.compute.images(
        details=False)]
    user.conn.compute.delete_image(image.id, ignore_missing=False)
    assert _glance(user, image.id) is None
