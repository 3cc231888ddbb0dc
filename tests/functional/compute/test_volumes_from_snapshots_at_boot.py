"""Servers whose volumes their compute host makes of volume snapshots or
new and empty (``block_device_mapping_v2`` ``snapshot -> volume`` and
``blank -> volume``, as Nova reads them: ``openstack server create
--snapshot SNAP`` and ``--block-device source_type=blank,...``), through
the whole stack: the real volume API makes the volumes of the real
snapshots' qcow2 chains, the host attaches them as it attaches volumes
the user gave.
"""

import uuid

import pytest
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as snaps

FLAVOR = '1'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _volume_with_data(user, data, size=1):
    volume = user.volume(size=size)
    with open(user.aio.volume_path(volume['id']), 'r+b') as f:
        f.write(data)
    return volume


def _boot(user, devices, wait=True):
    server = user.conn.compute.create_server(
        name='snap-' + uuid.uuid4().hex[:6], flavor_id=FLAVOR,
        networks='none', image_id='', block_device_mapping=devices)
    user.track(server.id)
    return user.wait_server(server.id) if wait else server


def _attached(user, server_id):
    volumes = user.volumes().get('/volumes/detail').json()['volumes']
    return {v['id']: v for v in volumes
            if any(a['server_id'] == server_id for a in v['attachments'])}


def test_a_server_on_a_volume_of_a_snapshot_with_a_blank_volume(cloud):
    user = cloud.project()
    data = helpers.disk_bytes(b'made of a snapshot')
    source = _volume_with_data(user, data, size=2)
    snapshot = snaps.snapshot(user.volumes(), source['id'],
                              wait_for=user.wait)
    server = _boot(user, [
        {'source_type': 'snapshot', 'destination_type': 'volume',
         'uuid': snapshot['id'], 'boot_index': 0,
         'delete_on_termination': True},
        {'source_type': 'blank', 'destination_type': 'volume',
         'volume_size': 1, 'boot_index': -1,
         'delete_on_termination': True}])

    made = _attached(user, server.id)
    assert len(made) == 2
    root = next(v for v in made.values() if v['snapshot_id'])
    blank = next(v for v in made.values() if not v['snapshot_id'])
    # The root is the snapshot's size (none was given), holds its data
    # and is the server's first disk; the blank one is empty.
    assert root['snapshot_id'] == snapshot['id']
    assert root['size'] == 2 and blank['size'] == 1
    devices = {v['attachments'][0]['device']: v['id']
               for v in made.values()}
    assert devices['/dev/sda'] == root['id']
    assert sh.file_size(user.aio.volume_path(blank['id'])) == sh.GiB
    with open(user.aio.volume_path(root['id']), 'rb') as f:
        assert f.read(len(data)) == data
    with open(user.aio.volume_path(blank['id']), 'rb') as f:
        assert f.read(len(data)) == bytes(len(data))
    shown = user.server(server.id)
    assert shown['image'] == ''
    assert sorted(a['id'] for a in
                  shown['os-extended-volumes:volumes_attached']) == \
        sorted(made)

    # Both went with the server; the snapshot and its volume stay.
    user.conn.compute.delete_server(server.id)
    user.wait_gone(server.id)
    for volume_id in made:
        user.wait_volume_gone(volume_id)
    assert user.volumes().get(
        '/snapshots/%s' % snapshot['id']).json()['snapshot']['status'] == \
        'available'


def test_a_given_size_at_least_the_snapshots(cloud):
    user = cloud.project()
    source = user.volume(size=1)
    snapshot = snaps.snapshot(user.volumes(), source['id'],
                              wait_for=user.wait)
    server = _boot(user, [
        {'source_type': 'snapshot', 'destination_type': 'volume',
         'uuid': snapshot['id'], 'boot_index': 0, 'volume_size': 2}])
    [volume] = _attached(user, server.id).values()
    assert volume['size'] == 2
    # Not deleted with the server (delete_on_termination left false).
    user.conn.compute.delete_server(server.id)
    user.wait_gone(server.id)
    user.assert_free(volume['id'])
    cloud.volumes.append((user, volume['id']))


@pytest.mark.parametrize('device, says', [
    ({'source_type': 'snapshot', 'destination_type': 'volume',
      'boot_index': 0}, 'Missing device UUID'),
    # (The fuzzer's: an image without one was a KeyError, a 500.)
    ({'source_type': 'image', 'destination_type': 'volume',
      'boot_index': 0, 'volume_size': 1}, 'Missing device UUID'),
    ({'source_type': 'blank', 'destination_type': 'volume',
      'boot_index': 0}, "Blanks with destination_type 'volume' need"),
    ({'source_type': 'blank', 'destination_type': 'local',
      'boot_index': -1, 'volume_size': 1},
     'a blank can only become a volume'),
    ({'source_type': 'snapshot', 'destination_type': 'local',
      'uuid': str(uuid.uuid4()), 'boot_index': 0},
     'a snapshot can only become a volume'),
    ({'source_type': 'snapshot', 'destination_type': 'volume',
      'uuid': str(uuid.uuid4()), 'boot_index': 0},
     'failed to get snapshot'),
])
def test_refused_before_anything_is_made(cloud, device, says):
    user = cloud.project()
    resp = user.compute('2.1').post('/servers', json={'server': {
        'name': 'bad', 'flavorRef': FLAVOR, 'imageRef': '',
        'block_device_mapping_v2': [device]}})
    assert resp.status_code == 400, resp.text
    assert says in sh.message(resp), resp.text
    assert user.compute().get('/servers').json()['servers'] == []
    assert user.volumes().get('/volumes').json()['volumes'] == []


def test_a_snapshot_too_big_for_the_size_given(cloud):
    user = cloud.project()
    source = user.volume(size=2)
    snapshot = snaps.snapshot(user.volumes(), source['id'],
                              wait_for=user.wait)
    resp = user.compute('2.1').post('/servers', json={'server': {
        'name': 'small', 'flavorRef': FLAVOR, 'imageRef': '',
        'block_device_mapping_v2': [
            {'source_type': 'snapshot', 'destination_type': 'volume',
             'uuid': snapshot['id'], 'boot_index': 0, 'volume_size': 1}]}})
    assert resp.status_code == 400, resp.text
    assert 'smaller than the snapshot (2 GiB)' in sh.message(resp)
    assert user.compute().get('/servers').json()['servers'] == []


def test_another_projects_snapshot_is_refused(cloud):
    owner, other = cloud.project(), cloud.project()
    source = owner.volume()
    snapshot = snaps.snapshot(owner.volumes(), source['id'],
                              wait_for=owner.wait)
    resp = other.compute('2.1').post('/servers', json={'server': {
        'name': 'theirs', 'flavorRef': FLAVOR, 'imageRef': '',
        'block_device_mapping_v2': [
            {'source_type': 'snapshot', 'destination_type': 'volume',
             'uuid': snapshot['id'], 'boot_index': 0}]}})
    assert resp.status_code == 400, resp.text
    assert 'failed to get snapshot' in sh.message(resp)
    assert other.volumes().get('/volumes').json()['volumes'] == []
