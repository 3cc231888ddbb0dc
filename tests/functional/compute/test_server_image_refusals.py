"""createImage and createBackup refused, raced and overtaken: every
refusal comes before anything is made (no image, no snapshot, the
server as it was), two snapshots of one server at once have one winner,
and a server deleted while it is snapshotted leaves no image half made.
Images that map volumes (snapshots of volume-backed servers) are refused
where they cannot serve: a rebuild, a volume made of one.
"""

import pytest
from tests.functional.compute import server_helpers as sh
from tests.functional.compute import test_server_images as si
from tests.functional import helpers
from tests.functional import image_helpers

from tether.compute import version as compute_version

V2_45 = si.V2_45


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _images(user):
    return list(user.conn.image.images(owner=user.project))


def _local_server(user, data=b'refusals'):
    base = image_helpers.upload(user.conn, helpers.disk_bytes(data))
    return base, sh.boot_image(user, base)


@pytest.mark.parametrize('body, says', [
    ({'createImage': {}}, "'name' is a required property"),
    ({'createImage': {'name': ' lead'}}, 'name'),
    ({'createImage': {'name': 'x', 'extra': 1}}, 'extra'),
    ({'createImage': {'name': 'x', 'metadata': {'k': 1}}}, 'metadata'),
    ({'createBackup': {'name': 'x', 'rotation': 1}}, 'backup_type'),
    ({'createBackup': {'name': 'x', 'backup_type': 'd',
                       'rotation': -1}}, 'rotation'),
    ({'createBackup': {'name': 'x', 'backup_type': 'd',
                       'rotation': '1x'}}, 'rotation'),
])
def test_bad_bodies(cloud, body, says):
    user = cloud.project()
    _, server = _local_server(user)
    resp = user.action(server.id, body, version=V2_45)
    assert resp.status_code == 400, resp.text
    assert says in sh.message(resp)
    assert [i.name for i in _images(user)] == [
        i.name for i in _images(user) if not i.name.startswith('x')]
    assert user.server(server.id)['OS-EXT-STS:task_state'] is None


@pytest.fixture
def few_metadata_items():
    before = sh.CONF.quota.metadata_items
    sh.CONF.set_override('metadata_items', 5, group='quota')
    yield 5
    sh.CONF.set_override('metadata_items', before, group='quota')


def test_metadata_is_held_to_quota_below_2_39(cloud, few_metadata_items):
    user = cloud.project()
    _, server = _local_server(user)
    many = {'k%d' % n: 'v' for n in range(few_metadata_items + 1)}
    before = {i.id for i in _images(user)}
    resp = user.action(server.id, {'createImage': {
        'name': 'many', 'metadata': many}}, version='2.38')
    assert resp.status_code == 403, resp.text
    assert 'metadata' in sh.message(resp).lower()
    assert {i.id for i in _images(user)} == before
    resp = user.action(server.id, {'createImage': {
        'name': 'many', 'metadata': many}}, version='2.39')
    assert resp.status_code == 202, resp.text
    si.wait_image(user, resp.headers['Location'].rsplit('/', 1)[1])


def test_the_image_api_refusing_leaves_the_server_as_it_was(cloud):
    # Past the image API's own limit of properties (Glance's 128): its
    # 413 is answered, and the server's task is given back.
    user = cloud.project()
    _, server = _local_server(user)
    before = {i.id for i in _images(user)}
    many = {'k%d' % n: 'v' for n in range(200)}
    resp = user.action(server.id, {'createImage': {
        'name': 'too-many', 'metadata': many}}, version='2.45')
    assert resp.status_code == 413, resp.text
    assert 'image properties' in sh.message(resp)
    assert {i.id for i in _images(user)} == before
    assert user.server(server.id)['OS-EXT-STS:task_state'] is None
    resp = si.create_image(user, server.id, name='then-fine')
    si.wait_image(user, resp.json()['image_id'])


def test_who_may(cloud):
    owner = cloud.project()
    _, server = _local_server(owner)
    reader = sh.Project(cloud, 'reader-' + owner.user, owner.project,
                        ['reader'])
    resp = reader.action(server.id, {'createImage': {'name': 'r'}},
                         version=V2_45)
    assert resp.status_code == 403, resp.text
    other = cloud.project()
    resp = other.action(server.id, {'createImage': {'name': 'o'}},
                        version=V2_45)
    assert resp.status_code == 404, resp.text
    resp = other.action(server.id, {'createBackup': {
        'name': 'o', 'backup_type': 'd', 'rotation': 1}}, version=V2_45)
    assert resp.status_code == 404, resp.text


def test_an_admins_snapshot_is_shared_with_the_servers_project(cloud):
    user = cloud.project()
    _, server = _local_server(user)
    admin = cloud.admin()
    resp = si.create_image(admin, server.id, name='by-admin')
    image_id = resp.json()['image_id']
    si.wait_image(admin, image_id)
    image = si.raw_image(admin, image_id)
    assert image['visibility'] == 'shared'
    assert image['instance_owner'] == user.project
    admin.conn.image.delete_image(image_id)


def test_a_locked_server_is_still_snapshotted(cloud):
    # As Nova: a lock keeps a server from changing, and a snapshot does
    # not change it.
    user = cloud.project()
    _, server = _local_server(user)
    admin = cloud.admin()
    resp = admin.action(server.id, {'lock': None})
    assert resp.status_code == 202, resp.text
    resp = si.create_image(user, server.id, name='of-locked')
    si.wait_image(user, resp.json()['image_id'])
    user.wait_server(server.id)


def test_states_it_is_refused_in(cloud):
    user = cloud.project()
    base, server = _local_server(user)
    resp = user.action(server.id, {'rescue': {'rescue_image_ref': base.id}})
    assert resp.status_code == 200, resp.text
    user.wait_server(server.id, 'RESCUE')
    for body in ({'createImage': {'name': 'r'}},
                 {'createBackup': {'name': 'r', 'backup_type': 'd',
                                   'rotation': 1}}):
        resp = user.action(server.id, body, version=V2_45)
        assert resp.status_code == 409, resp.text
        assert 'vm_state rescued' in sh.message(resp)
    assert [i.name for i in _images(user)] == [base.name]


def test_a_host_too_old_refuses_before_anything(cloud):
    user = cloud.project()
    base, server = _local_server(user)
    with sh.host_at_version(
            server.id,
            compute_version.SNAPSHOT_BUILD_SERVICE_VERSION - 1):
        resp = user.action(server.id, {'createImage': {'name': 'old'}},
                           version=V2_45)
    assert resp.status_code == 409, resp.text
    assert 'service version' in sh.message(resp)
    assert [i.name for i in _images(user)] == [base.name]
    assert user.server(server.id)['OS-EXT-STS:task_state'] is None


def test_two_snapshots_at_once_have_one_winner(cloud):
    user = cloud.project()
    base, server = _local_server(user)
    http = [user.compute(V2_45) for _ in range(2)]
    results = helpers.race([
        lambda h=h, n=n: h.post('/servers/%s/action' % server.id,
                                json={'createImage': {'name': 'race%d' % n}})
        for n, h in enumerate(http)])
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 409], [r.text for r in results]
    won = next(r for r in results if r.status_code == 202)
    lost = next(r for r in results if r.status_code == 409)
    assert 'task_state image_snapshot' in sh.message(lost)
    si.wait_image(user, won.json()['image_id'])
    user.wait_server(server.id)
    # The loser made no image.
    assert sorted(i.name for i in _images(user)) == sorted(
        [base.name, won.json() and next(
            i.name for i in _images(user)
            if i.id == won.json()['image_id'])])
    assert len(_images(user)) == 2


def test_a_server_deleted_while_snapshotted_leaves_no_half_image(cloud):
    user = cloud.project()
    _, server = _local_server(user)
    resp = si.create_image(user, server.id, name='overtaken')
    image_id = resp.json()['image_id']
    user.conn.compute.delete_server(server.id)
    user.wait_gone(server.id)

    # Either the snapshot was whole before the delete (active), or the
    # delete stopped it and its image went: never one left queued.
    def settled():
        if si.image_gone(user, image_id):
            return 'gone'
        status = user.conn.image.get_image(image_id).status
        return status if status == 'active' else None
    user.wait(settled, what='image %s active or gone' % image_id)


def test_images_that_map_volumes_make_no_volume_and_no_rebuild(cloud):
    user = cloud.project()
    server = user.boot()
    resp = si.create_image(user, server.id, name='vb')
    image_id = resp.json()['image_id']
    si.wait_image(user, image_id)
    # A volume of it: the volume API refuses, before anything is made.
    resp = user.volumes().post('/volumes', json={'volume': {
        'size': 1, 'imageRef': image_id}})
    assert resp.status_code == 400, resp.text
    assert 'snapshot of a volume-backed server' in sh.message(resp)
    # A rebuild with it.
    resp = user.action(server.id, {'rebuild': {'imageRef': image_id}},
                       version='2.93')
    assert resp.status_code == 400, resp.text
    assert 'snapshot of a volume-backed server' in sh.message(resp)
    user.wait_server(server.id)


def test_an_image_that_maps_no_root_is_refused_at_boot(cloud):
    user = cloud.project()
    volume = user.volume()
    from tests.functional.volume import snapshot_helpers as snaps
    snapshot = snaps.snapshot(user.volumes(), volume['id'],
                              wait_for=user.wait)
    image = image_helpers.upload(
        user.conn, b'', bdm_v2='True',
        block_device_mapping=(
            '[{"source_type": "snapshot", "destination_type": "volume", '
            '"snapshot_id": "%s", "boot_index": 1}]' % snapshot['id']))
    resp = user.compute('2.1').post('/servers', json={'server': {
        'name': 'noroot', 'flavorRef': '1', 'imageRef': image.id}})
    assert resp.status_code == 400, resp.text
    assert 'maps volumes but no root disk' in sh.message(resp)
    assert user.compute().get('/servers').json()['servers'] == []
