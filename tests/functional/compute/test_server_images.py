"""Servers snapshotted into images (createImage, createBackup) through
the whole stack: the real compute and volume APIs, the real Glance, the
compute host's copy of a local root disk (qemu-img) and the volume
service's snapshots of a volume-backed server's volumes; then servers
booted from those images.

The images are disks without an operating system (their bytes are
compared); test_real_guest_server_images.py does the same inside the
tiny Linux guest.
"""

import json
import os
import subprocess

import pytest
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional import image_helpers

FLAVOR = '1'
V2_45 = '2.45'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def create_image(user, server_id, name='snap', version=V2_45, **body):
    resp = user.action(server_id, {'createImage': dict(name=name, **body)},
                       version=version)
    assert resp.status_code == 202, resp.text
    return resp


def wait_image(user, image_id, status='active'):
    def check():
        image = user.conn.image.get_image(image_id)
        assert image.status not in ('killed', 'deleted'), image
        return image if image.status == status else None
    return user.wait(check, timeout=sh.TIMEOUT, interval=0.1,
                     what='image %s %s' % (image_id, status))


def raw_image(user, image_id):
    """The image as the image API answers it (properties at the top)."""
    resp = user.conn.image.get('/images/%s' % image_id)
    assert resp.status_code == 200, resp.text
    return resp.json()


def image_gone(user, image_id):
    resp = user.conn.image.get('/images/%s' % image_id)
    return resp.status_code == 404


def image_bytes(user, image_id, path):
    """The data of an image as a guest would read it (raw)."""
    with open(path + '.img', 'wb') as f:
        f.write(user.conn.image.download_image(image_id).content)
    subprocess.run(['qemu-img', 'convert', '-O', 'raw', path + '.img', path],
                   check=True, capture_output=True)
    with open(path, 'rb') as f:
        return f.read()


def _volume_with(user, data, size=1):
    volume = user.volume(size=size)
    with open(user.aio.volume_path(volume['id']), 'r+b') as f:
        f.write(data)
    return volume


# Volume-backed servers -----------------------------------------------------

def test_a_volume_backed_server_into_an_image_and_back(cloud, tmp_path):
    user = cloud.project()
    root_data = helpers.disk_bytes(b'root of the server')
    data_data = helpers.disk_bytes(b'its data volume')
    root = _volume_with(user, root_data)
    data = _volume_with(user, data_data)
    server = user.boot(root, block_device_mapping=[
        sh.root_bdm(root['id']),
        {'uuid': data['id'], 'source_type': 'volume',
         'destination_type': 'volume', 'boot_index': -1}])

    resp = create_image(user, server.id, name='vb-snap',
                        metadata={'purpose': 'test'})
    image_id = resp.json()['image_id']
    assert 'Location' not in resp.headers
    image = wait_image(user, image_id)
    assert image.size == 0
    assert image.visibility == 'private'
    props = raw_image(user, image_id)
    assert props['purpose'] == 'test'
    assert props['bdm_v2'] == 'True'
    assert props['root_device_name'] == '/dev/sda'
    mappings = json.loads(props['block_device_mapping'])
    assert [(m['boot_index'], m['source_type'], m['destination_type'])
            for m in mappings] == [(0, 'snapshot', 'volume'),
                                   (None, 'snapshot', 'volume')]
    snapshots = [m['snapshot_id'] for m in mappings]
    http = user.volumes('3.66')
    for snapshot_id, volume_id in zip(snapshots, (root['id'], data['id'])):
        snap = http.get('/snapshots/%s' % snapshot_id).json()['snapshot']
        assert snap['volume_id'] == volume_id
        assert snap['name'] == 'snapshot for vb-snap'
        user.wait(lambda sid=snapshot_id: http.get(
            '/snapshots/%s' % sid).json()['snapshot']['status'] ==
            'available', what='snapshot %s available' % snapshot_id)
    # The server was left as it was.
    assert user.server(server.id)['status'] == 'ACTIVE'
    action = user.instance_action(server.id, resp.headers[
        'x-openstack-request-id'])
    assert action['action'] == 'createImage'
    assert [(e['event'], e['result']) for e in action['events']] == [
        ('api_snapshot_instance', 'Success')]

    # A server booted from the image has volumes made of the snapshots:
    # the data the first one had when it was snapshotted.
    copy = sh.boot_image(user, image)
    shown = user.server(copy.id)
    assert shown['image'] == ''
    made = [a['id'] for a in shown['os-extended-volumes:volumes_attached']]
    assert len(made) == 2
    contents = sorted(image_helpers.volume_content(user.aio, v)[:len(
        root_data)] for v in made)
    assert contents == sorted([root_data, data_data])
    for volume_id in made:
        cloud.volumes.append((user, volume_id))


def test_before_2_45_the_image_is_in_location(cloud):
    user = cloud.project()
    server = user.boot()
    resp = create_image(user, server.id, version='2.44')
    assert resp.text == ''
    location = resp.headers['Location']
    image_id = location.rsplit('/', 1)[1]
    assert location.endswith('/images/%s' % image_id)
    wait_image(user, image_id)


def test_a_volume_backed_server_is_not_backed_up(cloud):
    user = cloud.project()
    server = user.boot()
    resp = user.action(server.id, {'createBackup': {
        'name': 'b', 'backup_type': 'daily', 'rotation': 1}})
    assert resp.status_code == 400, resp.text
    assert 'not supported for volume-backed' in sh.message(resp)
    assert list(user.conn.image.images(owner=user.project)) == []


def test_a_suspended_volume_backed_server_is_refused(cloud):
    user = cloud.project()
    server = user.boot()
    user.conn.compute.suspend_server(server)
    user.wait_server(server.id, 'SUSPENDED')
    resp = user.action(server.id, {'createImage': {'name': 'x'}},
                       version=V2_45)
    assert resp.status_code == 409, resp.text
    assert 'vm_state suspended' in sh.message(resp)
    assert user.volumes().get('/snapshots').json()['snapshots'] == []


def test_the_snapshot_quota_is_checked_first(cloud):
    user = cloud.project()
    admin = cloud.admin().volumes()
    resp = admin.put('/os-quota-sets/%s' % user.project,
                     json={'quota_set': {'snapshots': 1}})
    assert resp.status_code == 200, resp.text
    root = user.volume()
    data = user.volume()
    server = user.boot(root, block_device_mapping=[
        sh.root_bdm(root['id']),
        {'uuid': data['id'], 'source_type': 'volume',
         'destination_type': 'volume', 'boot_index': -1}])
    resp = user.action(server.id, {'createImage': {'name': 'x'}},
                       version=V2_45)
    assert resp.status_code == 403, resp.text
    assert "['snapshots']" in sh.message(resp)
    assert user.volumes().get('/snapshots').json()['snapshots'] == []
    assert list(user.conn.image.images(owner=user.project)) == []


# Servers with a local root disk ---------------------------------------------

def test_a_server_from_an_image_into_an_image(cloud, tmp_path):
    user = cloud.project()
    data = helpers.disk_bytes(b'local root disk')
    base = image_helpers.upload(user.conn, data, os_distro='tiny',
                                hw_disk_bus='scsi')
    server = sh.boot_image(user, base)
    resp = create_image(user, server.id, name='local-snap')
    image = wait_image(user, resp.json()['image_id'])
    assert (image.disk_format, image.container_format) == ('qcow2', 'bare')
    props = raw_image(user, image.id)
    assert props['image_type'] == 'snapshot'
    assert props['instance_uuid'] == server.id
    assert props['base_image_ref'] == base.id
    # The base image's own properties are inherited.
    assert props['os_distro'] == 'tiny'
    assert image.owner == user.project and image.visibility == 'private'
    # Its data: the server's disk (the image's data, grown to the
    # flavor's root disk).
    got = image_bytes(user, image.id, str(tmp_path / 'snap.raw'))
    assert got[:len(data)] == data
    assert len(got) == sh.GiB
    assert user.server(server.id)['status'] == 'ACTIVE'
    assert user.server(server.id)['OS-EXT-STS:task_state'] is None
    action = user.wait_events(
        server.id, resp.headers['x-openstack-request-id'],
        [('compute_snapshot_instance', 'Success')])
    assert action['action'] == 'createImage'
    # No copy is left on the host.
    directory = os.path.join(sh.CONF.instances_path, 'snapshots')
    assert not os.path.isdir(directory) or os.listdir(directory) == []

    # It boots a server, whose disk has the same data.
    copy = sh.boot_image(user, image)
    path = str(tmp_path / 'copy.raw')
    subprocess.run(['qemu-img', 'convert', '-U', '-O', 'raw',
                    sh.root_disk(copy.id), path], check=True)
    with open(path, 'rb') as f:
        assert f.read(len(data)) == data


@pytest.mark.parametrize('state', ['SHUTOFF', 'PAUSED', 'SUSPENDED'])
def test_a_server_from_an_image_in_other_states(cloud, state):
    user = cloud.project()
    base = image_helpers.upload(user.conn, helpers.disk_bytes(b'x'))
    server = sh.boot_image(user, base)
    act = {'SHUTOFF': user.conn.compute.stop_server,
           'PAUSED': user.conn.compute.pause_server,
           'SUSPENDED': user.conn.compute.suspend_server}[state]
    act(server)
    user.wait_server(server.id, state)
    resp = create_image(user, server.id)
    wait_image(user, resp.json()['image_id'])
    # It is left in its state, and a paused guest stays paused.
    user.wait_server(server.id, state)
    if state == 'PAUSED':
        assert sh.domain_state(server.id) == 'paused'


def test_backups_are_rotated(cloud):
    user = cloud.project()
    base = image_helpers.upload(user.conn, helpers.disk_bytes(b'backup'))
    server = sh.boot_image(user, base)
    made = []
    for n in range(3):
        resp = user.action(server.id, {'createBackup': {
            'name': 'b%d' % n, 'backup_type': 'daily', 'rotation': 2,
            'metadata': {'n': str(n)}}}, version=V2_45)
        assert resp.status_code == 202, resp.text
        made.append(resp.json()['image_id'])
        user.wait_server(server.id)
        wait_image(user, made[-1])
    # A weekly backup is another rotation.
    resp = user.action(server.id, {'createBackup': {
        'name': 'w', 'backup_type': 'weekly', 'rotation': '1'}},
        version=V2_45)
    weekly = resp.json()['image_id']
    user.wait_server(server.id)
    wait_image(user, weekly)
    user.wait(lambda: image_gone(user, made[0]),
              what='the oldest daily backup rotated away')
    kept = {i.id for i in user.conn.image.images(instance_uuid=server.id)}
    assert kept == {made[1], made[2], weekly}
    newest = raw_image(user, made[2])
    assert (newest['backup_type'], newest['image_type'], newest['n']) == (
        'daily', 'backup', '2')


def test_a_backup_of_rotation_0_before_2_45_names_no_image(cloud):
    user = cloud.project()
    base = image_helpers.upload(user.conn, helpers.disk_bytes(b'r0'))
    server = sh.boot_image(user, base)
    resp = user.action(server.id, {'createBackup': {
        'name': 'gone', 'backup_type': 'daily', 'rotation': 0}},
        version='2.1')
    assert resp.status_code == 202, resp.text
    assert 'Location' not in resp.headers
    user.wait_server(server.id)
    # Rotation 0 keeps no backup, this one included (Nova's).
    user.wait(lambda: list(user.conn.image.images(
        instance_uuid=server.id)) == [], what='no backup kept')
