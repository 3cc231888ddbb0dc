"""Servers booted from images onto a local root disk, through the whole
stack: the aio's real Glance, real qemu-img, real libvirt and QEMU.

The images here are small disks made by the test (4 MiB, no operating
system: QEMU holds the root disk and sits in its firmware, which is all
these flows need); tests/functional/compute/test_real_guest_images.py
boots the tiny Linux guest from Glance and looks from inside it.

What a refused request leaves is checked each time: no server, no
download in the image cache, no root disk.
"""

import os
import uuid
import xml.etree.ElementTree as ET

import pytest
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional import image_helpers

from tether.compute import rpcapi as compute_rpcapi
from tether.drivers import qemu_img

GiB = sh.GiB
MiB = helpers.MiB
# m1.nano: 64 MiB, a root disk of 1 GB.
FLAVOR = '1'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def domain_disks(server_id):
    """(target, source file, format, boot order) of the guest's disks."""
    xml = ET.fromstring(sh.virsh('dumpxml', sh.domain(server_id)).stdout)
    out = []
    for disk in xml.findall('./devices/disk'):
        boot = disk.find('boot')
        out.append((disk.find('target').get('dev'),
                    disk.find('source').get('file'),
                    disk.find('driver').get('type'),
                    boot.get('order') if boot is not None else None))
    return out


# Booted from an image --------------------------------------------------------

def test_a_server_from_an_image_has_a_local_root_disk(cloud):
    user = cloud.project()
    data = helpers.disk_bytes(b'local root disk')
    image = image_helpers.upload(user.conn, data)
    server = sh.boot_image(user, image)

    # The image once in the host's cache, raw, as Glance has it.
    with open(sh.cached(image.id), 'rb') as f:
        assert f.read() == data
    assert sh.leftovers(image.id) == []
    # The root disk: a qcow2 overlay on it, of the flavor's root disk.
    info = qemu_img.info(sh.root_disk(server.id), 'qcow2', force_share=True)
    assert info.file_format == 'qcow2'
    assert info.virtual_size == 1 * GiB
    assert info.backing_file == sh.cached(image.id)
    # The guest's first disk and the first in its boot order.
    assert domain_disks(server.id) == [
        ('sda', sh.root_disk(server.id), 'qcow2', '1')]
    assert sh.locked(sh.root_disk(server.id), 'qcow2')

    shown = user.server(server.id)
    assert shown['image'] == {'id': image.id, 'links': [
        {'rel': 'bookmark', 'href': '%s/%s/images/%s' % (
            user.aio.compute_root_url, user.project, image.id)}]}
    assert shown['os-extended-volumes:volumes_attached'] == []
    admin_view = user.cloud.admin().server(server.id)
    assert admin_view['OS-EXT-SRV-ATTR:root_device_name'] == '/dev/sda'
    listed = user.compute(sh.LATEST).get(
        '/servers/detail?image=%s' % image.id).json()['servers']
    assert [s['id'] for s in listed] == [server.id]
    # A volume-backed server shows no image, and is not of that image.
    other = user.boot()
    assert user.server(other.id)['image'] == ''
    assert user.conn.compute.get_server(server.id).image.id == image.id

    # Deleting the server removes its root disk; the image stays cached
    # for the next one (the image cache manager removes it later).
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    assert not os.path.exists(os.path.dirname(sh.root_disk(server.id)))
    assert os.path.exists(sh.cached(image.id))


def test_what_openstack_server_create_image_sends(cloud):
    """``openstack server create --image IMG`` sends imageRef and a
    mapping image -> local of the same image; with a data volume."""
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    data = user.volume()
    body = {'server': {
        'name': 'osc', 'imageRef': image.id, 'flavorRef': FLAVOR,
        'networks': 'none', 'min_count': 1, 'max_count': 1,
        'block_device_mapping_v2': [
            {'uuid': image.id, 'boot_index': 0, 'source_type': 'image',
             'destination_type': 'local', 'delete_on_termination': True},
            {'uuid': data['id'], 'boot_index': -1, 'source_type': 'volume',
             'destination_type': 'volume'}]}}
    resp = user.compute(sh.LATEST).post('/servers', json=body)
    assert resp.status_code == 202, resp.text
    server_id = resp.json()['server']['id']
    user.track(server_id)
    user.wait_server(server_id)

    # The volume after the root disk, where the volume service was told.
    assert [d[:3] for d in domain_disks(server_id)] == [
        ('sda', sh.root_disk(server_id), 'qcow2'),
        ('sdb', user.aio.volume_path(data['id']), 'raw')]
    attachments = user.conn.compute.volume_attachments(server_id)
    assert [(a.volume_id, a.device) for a in attachments] == [
        (data['id'], '/dev/sdb')]
    [attachment] = user.show_volume(data['id'])['attachments']
    assert attachment['device'] == '/dev/sdb'
    # Another volume attached later takes the next name.
    more = user.volume()
    added = user.conn.compute.create_volume_attachment(
        server_id, volume_id=more['id'])
    assert added.device == '/dev/sdc'
    user.conn.compute.delete_server(server_id)
    user.wait_gone(server_id)
    user.wait_volume(data['id'], 'available')
    user.assert_free(more['id'])


def test_a_flavor_with_a_root_disk_of_0_takes_the_images_size(cloud):
    admin = cloud.admin()
    flavor = admin.conn.compute.create_flavor(
        name='zero-' + uuid.uuid4().hex[:6], ram=64, vcpus=1, disk=0)
    try:
        image = image_helpers.upload(admin.conn,
                                     helpers.disk_bytes(size=8 * MiB),
                                     visibility='public')
        # Only administrators may (Nova's policy): the image could fill
        # the host's disk.
        user = cloud.project()
        resp = user.compute(sh.LATEST).post('/servers', json={'server': {
            'name': 'zero', 'imageRef': image.id, 'flavorRef': flavor.id,
            'networks': 'none'}})
        assert resp.status_code == 403, resp.text
        assert resp.json()['forbidden']['error_code'] == \
            'compute.flavor.zero_disk'
        assert not os.path.exists(sh.cached(image.id))

        server = sh.boot_image(admin, image, flavor=flavor.id)
        info = qemu_img.info(sh.root_disk(server.id), 'qcow2',
                             force_share=True)
        assert info.virtual_size == 8 * MiB
    finally:
        admin.conn.compute.delete_flavor(flavor)


# Refused in the API, before anything is made ---------------------------------

def _refused(user, body, status=400):
    resp = user.compute(sh.LATEST).post('/servers', json=body)
    assert resp.status_code == status, resp.text
    assert user.compute().get('/servers').json()['servers'] == []
    return next(iter(resp.json().values()))


def _image_body(image_id, **server):
    return {'server': dict({'name': 'refused', 'imageRef': image_id,
                            'flavorRef': FLAVOR, 'networks': 'none'},
                           **server)}


def _queued(conn):
    return conn.image.create_image(name='queued', disk_format='raw',
                                   container_format='bare')


def _qcow2_of(conn, tmp_path, size):
    path = tmp_path / 'big.qcow2'
    image_helpers.qemu_img('create', '-f', 'qcow2', str(path), size)
    return image_helpers.upload_file(conn, path, 'qcow2')


# Fixed ids: pytest-xdist's workers must collect the same tests.
@pytest.mark.parametrize('case', [
    'missing', 'another-projects', 'queued', 'min-ram', 'min-disk',
    'virtual-size', 'ovf'])
def test_an_image_the_server_cannot_boot_from_is_refused(cloud, tmp_path,
                                                         case):
    user = cloud.project()
    conn = user.conn
    small = helpers.disk_bytes()
    image, code, words = {
        'missing': (lambda: (uuid.UUID(int=7), 'compute.image.not_found',
                             'Can not find requested image')),
        'another-projects': (lambda: (
            image_helpers.upload(cloud.project().conn, small),
            'compute.image.not_found', 'Can not find requested image')),
        'queued': (lambda: (_queued(conn), 'compute.image.not_active',
                            'is not active')),
        'min-ram': (lambda: (
            image_helpers.upload(conn, small, min_ram=128),
            'compute.flavor.memory_too_small',
            "Flavor's memory is too small for requested image")),
        'min-disk': (lambda: (
            image_helpers.upload(conn, small, min_disk=2),
            'compute.flavor.disk_smaller_than_min_disk',
            'minimum size is 2147483648 bytes')),
        'virtual-size': (lambda: (
            _qcow2_of(conn, tmp_path, '3G'),
            'compute.flavor.disk_smaller_than_image',
            'Flavor disk is 1073741824 bytes, image is 3221225472 bytes')),
        'ovf': (lambda: (
            image_helpers.upload(conn, small, container_format='ovf'),
            'compute.image.unacceptable', 'container format is ovf')),
    }[case]()
    image_id = str(getattr(image, 'id', image))
    fault = _refused(user, _image_body(image_id))
    assert fault['error_code'] == code, fault
    assert words in fault['message'], fault
    assert not os.path.exists(sh.cached(image_id))


@pytest.mark.parametrize('case', ['local-without-imageref',
                                  'another-local-image', 'two-roots'])
def test_mappings_that_make_no_server_are_refused(cloud, case):
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    volume = user.volume()
    local = {'uuid': image.id, 'boot_index': 0, 'source_type': 'image',
             'destination_type': 'local'}
    body, words = {
        'local-without-imageref': (
            _image_body('', block_device_mapping_v2=[local]),
            'Mapping image to local is not supported.'),
        'another-local-image': (
            _image_body(image_helpers.upload(
                user.conn, helpers.disk_bytes(b'another')).id,
                block_device_mapping_v2=[local]),
            'must be the image of imageRef'),
        'two-roots': (
            _image_body(image.id, block_device_mapping_v2=[
                local, sh.root_bdm(volume['id'])]),
            'only one block_device_mapping_v2 entry may have boot_index 0'),
    }[case]
    fault = _refused(user, body)
    assert fault['error_code'] == \
        'compute.server.invalid_block_device_mapping'
    assert words in fault['message'], fault
    user.assert_free(volume['id'])
    assert not os.path.exists(sh.cached(image.id))


def test_a_root_volume_wins_over_imageref(cloud):
    # As Nova (and Tempest's stable rescue tests send it): imageRef beside
    # a root volume entry boots from the volume.
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes(b'beside'))
    volume = user.volume()
    resp = user.compute('2.1').post('/servers', json=_image_body(
        image.id, block_device_mapping_v2=[sh.root_bdm(volume['id'])]))
    assert resp.status_code == 202, resp.text
    server_id = resp.json()['server']['id']
    user.track(server_id)
    user.wait_server(server_id)
    shown = user.server(server_id)
    assert shown['image'] == ''
    assert [a['id'] for a in shown['os-extended-volumes:volumes_attached']
            ] == [volume['id']]
    assert not os.path.exists(sh.cached(image.id))


def test_no_imageref_and_no_mapping_is_400(cloud):
    fault = _refused(cloud.project(), _image_body(''))
    assert fault['message'] == 'Missing imageRef attribute'


def test_an_api_pinned_below_rpc_1_2_refuses_images(cloud, levels,
                                                    monkeypatch):
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    levels('compute', '1.1')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    fault = _refused(user, _image_body(image.id), 409)
    assert fault['error_code'] == 'tether.rpc.version_pinned'
    assert 'a server from an image needs tether-compute RPC version ' \
        '1.2' in fault['message']
    # A server of volumes still boots.
    user.boot()


def test_hosts_too_old_for_images_are_409(cloud, compute_hosts):
    zone = 'old-' + uuid.uuid4().hex[:6]
    old = compute_hosts.add(zone=zone)      # service version 1
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    fault = _refused(user, _image_body(image.id, availability_zone=zone),
                     409)
    assert fault['error_code'] == 'compute.host.all_too_old'
    assert '%s (1)' % old.host in fault['message']
    assert 'service version 4' in fault['message']


# Refused on the compute host: ERROR, nothing left ---------------------------

def test_image_data_the_host_refuses(cloud, tmp_path, wait):
    """A qcow2 uploaded as raw (Glance 33 takes it): the host inspects
    what it downloaded before any qemu-img reads it, and refuses."""
    user = cloud.project()
    image_helpers.qemu_img('create', '-f', 'qcow2',
                           str(tmp_path / 'disk'), '1M')
    image = image_helpers.upload_file(user.conn, tmp_path / 'disk', 'raw')
    server = sh.boot_image(user, image, wait=False)
    server = user.wait_server(server.id, 'ERROR')
    assert 'The image is refused' in server.fault['message']
    assert 'qcow2, not the raw it claims' in server.fault['message']
    assert not os.path.exists(sh.cached(image.id))
    assert sh.leftovers(image.id) == []
    assert not os.path.exists(os.path.dirname(sh.root_disk(server.id)))
    assert sh.domain_state(server.id) is None


def test_an_image_whose_data_is_larger_than_glance_says(cloud, tmp_path):
    """Glance recorded 1 MiB of virtual size; the data says 3 GiB: it
    does not fit the root disk of 1 GB the API let through."""
    user = cloud.project()
    image_helpers.qemu_img('create', '-f', 'qcow2',
                           str(tmp_path / 'big'), '3G')
    image = image_helpers.unchecked_image(
        user.aio, user.conn, (tmp_path / 'big').read_bytes(), 'qcow2',
        virtual_size=MiB)
    server = sh.boot_image(user, image, wait=False)
    server = user.wait_server(server.id, 'ERROR')
    assert 'more than the root disk of 1073741824 bytes' in \
        server.fault['message']
    assert not os.path.exists(os.path.dirname(sh.root_disk(server.id)))
