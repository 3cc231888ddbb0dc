"""Servers booted from a volume their compute host makes of an image
(``block_device_mapping_v2`` image -> volume: ``openstack server create
--image IMG --boot-from-volume N``), through the whole stack: the
compute host asks the real volume API to make the volume of the real
Glance's image, waits for it, and attaches it as a volume the user gave.

The images are small disks without an operating system;
test_real_guest_images.py boots the tiny Linux guest this way.
"""

import os
import time
import uuid

from oslo_config import cfg
import pytest
from tests import openstack_cli
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional import image_helpers

from tether.db.compute import instance as db_instances

CONF = cfg.CONF
GiB = sh.GiB
FLAVOR = '1'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def image_bdm(image_id, size=1, **extra):
    return dict({'uuid': image_id, 'source_type': 'image',
                 'destination_type': 'volume', 'boot_index': 0,
                 'volume_size': size}, **extra)


def boot(user, image_id, wait=True, size=1, **extra):
    """A server on a new volume of ``image_id``, as openstacksdk sends
    what ``openstack server create --boot-from-volume`` sends."""
    server = user.conn.compute.create_server(
        name='bfv-' + uuid.uuid4().hex[:6], flavor_id=FLAVOR,
        networks='none', image_id='',
        block_device_mapping=[image_bdm(image_id, size, **extra)])
    user.track(server.id)
    if wait:
        server = user.wait_server(server.id)
    return server


def project_volumes(user):
    resp = user.volumes().get('/volumes/detail')
    assert resp.status_code == 200, resp.text
    return resp.json()['volumes']


def test_a_server_on_a_volume_made_of_an_image(cloud):
    user = cloud.project()
    data = helpers.disk_bytes(b'boot from volume')
    image = image_helpers.upload(user.conn, data)
    server = boot(user, image.id, size=2, delete_on_termination=True)

    [volume] = project_volumes(user)
    assert volume['size'] == 2
    assert volume['status'] == 'in-use'
    assert volume['bootable'] == 'true'
    assert volume['volume_image_metadata']['image_id'] == image.id
    [attachment] = volume['attachments']
    assert (attachment['server_id'], attachment['device']) == (server.id,
                                                               '/dev/sda')
    assert sh.locked(user.aio.volume_path(volume['id']))
    with open(user.aio.volume_path(volume['id']), 'rb') as f:
        assert f.read(len(data)) == data
    # A volume-backed server: no image, the volume attached.
    shown = user.server(server.id)
    assert shown['image'] == ''
    assert shown['os-extended-volumes:volumes_attached'] == [
        {'id': volume['id'], 'delete_on_termination': True}]
    assert not os.path.exists(os.path.join(CONF.instances_path, server.id,
                                           'disk'))
    admin_view = cloud.admin().server(server.id)
    assert admin_view['OS-EXT-SRV-ATTR:root_device_name'] == '/dev/sda'

    # delete_on_termination: the volume goes with the server.
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    user.wait_volume_gone(volume['id'])


def test_a_volume_made_of_an_image_outlives_its_server(cloud):
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    server = boot(user, image.id, delete_on_termination=False)
    [volume] = project_volumes(user)
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    user.wait_volume(volume['id'], 'available')
    user.assert_free(volume['id'])
    cloud.volumes.append((user, volume['id']))


def test_volumes_given_and_made_at_once(cloud):
    """A root volume made of an image, a data volume made of another
    and one the user gave."""
    user = cloud.project()
    root_image, data_image = (image_helpers.upload(
        user.conn, helpers.disk_bytes(m)) for m in (b'r', b'd'))
    given = user.volume()
    server = user.conn.compute.create_server(
        name='mixed', flavor_id=FLAVOR, networks='none', image_id='',
        block_device_mapping=[
            image_bdm(root_image.id, delete_on_termination=True),
            dict(image_bdm(data_image.id, delete_on_termination=True),
                 boot_index=None),
            sh.root_bdm(given['id'], boot_index=1)])
    user.track(server.id)
    user.wait_server(server.id)
    by_device = {}
    for volume in project_volumes(user):
        [attachment] = volume['attachments']
        by_device[attachment['device']] = volume
    assert sorted(by_device) == ['/dev/sda', '/dev/sdb', '/dev/sdc']
    assert by_device['/dev/sda']['volume_image_metadata']['image_id'] == \
        root_image.id
    assert by_device['/dev/sdb']['id'] == given['id']
    assert by_device['/dev/sdc']['volume_image_metadata']['image_id'] == \
        data_image.id
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    user.wait_volume(given['id'], 'available')
    for device in ('/dev/sda', '/dev/sdc'):
        user.wait_volume_gone(by_device[device]['id'])


def test_openstack_server_create_boot_from_volume(cloud):
    """The commands a user types: python-openstackclient on the aio's
    clouds.yaml (the demo user)."""
    aio = cloud.aio
    admin = cloud.admin()
    image = image_helpers.upload(admin.conn, helpers.disk_bytes(),
                                 visibility='public')
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=aio.impl.clouds_path,
               OS_CLOUD='tether')
    names = ['osc-' + uuid.uuid4().hex[:6] for _ in range(2)]

    def openstack(*args):
        proc = openstack_cli.openstack_run(
            [*args, '-f', 'value', '-c', 'id'], env=env)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    local = openstack('server', 'create', '--image', image.id, '--flavor',
                      'm1.nano', '--nic', 'none', '--wait', names[0])
    bfv = openstack('server', 'create', '--image', image.id,
                    '--boot-from-volume', '1', '--flavor', 'm1.nano',
                    '--nic', 'none', '--wait', names[1])
    demo = sh.Project(cloud, 'demo', 'demo', None)
    demo.track(local)
    demo.track(bfv)
    assert demo.server(local)['image']['id'] == image.id
    shown = demo.server(bfv)
    assert shown['image'] == ''
    [attached] = shown['os-extended-volumes:volumes_attached']
    volume = demo.show_volume(attached['id'])
    assert volume['volume_image_metadata']['image_id'] == image.id
    assert attached['delete_on_termination'] is False
    cloud.volumes.append((demo, attached['id']))


# Refused in the API ----------------------------------------------------------

@pytest.mark.parametrize('case', ['missing', 'min-disk', 'virtual-size',
                                  'min-ram', 'queued'])
def test_an_image_no_volume_of_that_size_can_be_made_of(
        cloud, tmp_path, case):
    user = cloud.project()
    conn = user.conn
    small = helpers.disk_bytes()
    image, code, words = {
        'missing': lambda: (
            str(uuid.UUID(int=11)),
            'compute.server.invalid_block_device_mapping',
            'failed to get image %s.' % uuid.UUID(int=11)),
        'min-disk': lambda: (
            image_helpers.upload(conn, small, min_disk=2).id,
            'compute.image.volume_smaller_than_min_disk',
            'Volume size is 1073741824 bytes, minimum size is 2147483648 '
            'bytes'),
        'virtual-size': lambda: (
            _qcow2(conn, tmp_path, '3G').id,
            'compute.image.volume_smaller_than_image',
            'Volume size is 1073741824 bytes, image is 3221225472 bytes'),
        'min-ram': lambda: (
            image_helpers.upload(conn, small, min_ram=512).id,
            'compute.flavor.memory_too_small', 'needs 512 MiB'),
        'queued': lambda: (
            conn.image.create_image(name='q', disk_format='raw',
                                    container_format='bare').id,
            'compute.image.not_active', 'is not active'),
    }[case]()
    resp = user.compute(sh.LATEST).post('/servers', json={'server': {
        'name': 'refused', 'flavorRef': FLAVOR, 'networks': 'none',
        'imageRef': '', 'block_device_mapping_v2': [image_bdm(image)]}})
    assert resp.status_code == 400, resp.text
    fault = resp.json()['badRequest']
    assert fault['error_code'] == code
    assert words in fault['message']
    assert user.compute().get('/servers').json()['servers'] == []
    assert project_volumes(user) == []


def _qcow2(conn, tmp_path, size):
    path = tmp_path / 'big.qcow2'
    image_helpers.qemu_img('create', '-f', 'qcow2', str(path), size)
    return image_helpers.upload_file(conn, path, 'qcow2')


# Failures on the hosts: ERROR with a fault, nothing held ---------------------

def _bad_image(user, tmp_path):
    """A qcow2 uploaded as raw: Glance 33 takes it, the volume service
    refuses to write it into a volume (the volume goes to error)."""
    image_helpers.qemu_img('create', '-f', 'qcow2',
                           str(tmp_path / 'disk'), '1M')
    return image_helpers.upload_file(user.conn, tmp_path / 'disk', 'raw')


@pytest.mark.parametrize('delete_on_termination', [True, False],
                         ids=['delete-on-termination', 'keep'])
def test_a_volume_the_volume_service_fails_to_make(cloud, tmp_path,
                                                   delete_on_termination):
    user = cloud.project()
    image = _bad_image(user, tmp_path)
    server = boot(user, image.id, wait=False,
                  delete_on_termination=delete_on_termination)
    server = user.wait_server(server.id, 'ERROR')
    assert 'did not finish being created' in server.fault['message']
    assert 'its status is error' in server.fault['message']
    assert user.server(server.id)[
        'os-extended-volumes:volumes_attached'] == []
    volumes = project_volumes(user)
    if delete_on_termination:
        # Deleted, as Nova deletes it.
        for volume in volumes:
            user.wait_volume_gone(volume['id'])
    else:
        [volume] = volumes
        assert volume['status'] == 'error'
        assert user.attachments(volume['id']) == []
        cloud.volumes.append((user, volume['id']))


def test_a_volume_that_takes_too_long(cloud, wait):
    """block_device_allocate_retries 0: the host looks once, while the
    volume is still being made. The server is ERROR with no attachment;
    the volume goes with it: at once, if it was made by the time the
    failed build cleaned up (a create from an image now takes tens of
    milliseconds), else when the server is deleted."""
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    CONF.set_override('block_device_allocate_retries', 0)
    try:
        server = boot(user, image.id, wait=False,
                      delete_on_termination=True)
        server = user.wait_server(server.id, 'ERROR')
    finally:
        CONF.clear_override('block_device_allocate_retries')
    assert 'did not finish being created' in server.fault['message']
    assert 'after we waited 0 seconds or 1 attempts' in \
        server.fault['message']
    volumes = project_volumes(user)
    assert len(volumes) <= 1, volumes
    for volume in volumes:
        user.wait_volume(volume['id'], 'available')
        assert user.attachments(volume['id']) == []
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    for volume in volumes:
        user.wait_volume_gone(volume['id'])
    assert project_volumes(user) == []


@pytest.mark.parametrize('delete_on_termination', [True, False],
                         ids=['delete-on-termination', 'keep'])
def test_delete_overtakes_the_build(cloud, monkeypatch,
                                    delete_on_termination):
    """The server is deleted while its volume is being made: the build
    stops waiting, and the delete takes the volume with it once it is
    made, or leaves it available."""
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    ctx = helpers.admin_context()
    made = []

    def until_deleting():
        # The volume host's download of the image waits for the delete,
        # and a second more: the delete finds the volume downloading.
        user.wait(lambda: made and db_instances.get(
            ctx, made[0], deleted=None).task_state in ('deleting', None),
            timeout=60, what='the server being deleted')
        time.sleep(1)

    image_helpers.Downloads(monkeypatch, before=until_deleting)
    server = boot(user, image.id, wait=False,
                  delete_on_termination=delete_on_termination)
    [volume] = user.wait(lambda: project_volumes(user), timeout=60,
                         what='the volume made for the server')
    assert volume['status'] in ('creating', 'downloading')
    made.append(server.id)
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    assert sh.domain_state(server.id) is None
    if delete_on_termination:
        user.wait_volume_gone(volume['id'])
    else:
        user.wait_volume(volume['id'], 'available')
        user.assert_free(volume['id'])
        cloud.volumes.append((user, volume['id']))


def test_a_restart_during_the_build(cloud):
    """tether-compute stops after it made the volume, before it attached
    it: the restarted host fails the build and deletes the volume it made
    (delete_on_termination)."""
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    server = boot(user, image.id, delete_on_termination=True)
    [volume] = project_volumes(user)

    def died_in_block_device_mapping():
        # The volume made and reserved, the guest not started.
        sh.virsh('destroy', sh.domain(server.id))
        db_instances.update(helpers.admin_context(), server.id,
                            {'vm_state': 'building',
                             'task_state': 'block_device_mapping'})
    user.aio.restart_compute_service(died_in_block_device_mapping)
    shown = user.wait_server(server.id, 'ERROR')
    assert 'interrupted by a restart' in shown.fault['message']
    user.wait_volume_gone(volume['id'])
