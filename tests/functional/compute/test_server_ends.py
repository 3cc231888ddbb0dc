"""How servers end over HTTP: deleted (the volume released, or deleted
on termination), refused at create (bad bodies reserve nothing, a volume
it cannot have is a 400), or made and failed (a guest that cannot start,
a zone without a host: ERROR with a fault). The rest of the servers'
stories: test_servers.py."""

import os
import subprocess
import uuid

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh

CONF = cfg.CONF


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


# Delete ----------------------------------------------------------------------

def test_delete_releases_the_volume(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    assert sh.domain_state(server.id) is None
    user.assert_free(volume['id'])
    resp = user.compute(sh.LATEST).get('/servers/%s' % server.id)
    assert resp.status_code == 404
    assert server.id in sh.message(resp)
    # Deleted servers leave the lists; a second delete is a 404.
    assert user.compute().get('/servers').json()['servers'] == []
    assert user.compute().delete('/servers/%s' % server.id).status_code \
        == 404
    # The volume boots another server.
    second = user.boot(volume)
    assert user.show_volume(volume['id'])['attachments'][0][
        'server_id'] == second.id


def test_delete_on_termination_deletes_the_volume(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume, block_device_mapping=[
        sh.root_bdm(volume['id'], delete_on_termination=True)])
    assert user.server(server.id)['os-extended-volumes:volumes_attached'] \
        == [{'id': volume['id'], 'delete_on_termination': True}]
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    user.wait_volume_gone(volume['id'])


# Bad input -------------------------------------------------------------------

def _bad_bodies(volume_id):
    """(version, body, a word the message must contain)."""
    def body(**server):
        return sh.server_body(volume_id, **server)

    no_networks = body()
    del no_networks['server']['networks']
    no_root = body(block_device_mapping_v2=[
        sh.root_bdm(volume_id, boot_index=1)])
    snapshot_bdm = body(block_device_mapping_v2=[
        sh.root_bdm(volume_id, source_type='snapshot')])
    # A volume made of an image needs its size (an image that does not
    # exist is found missing first, as Nova reads the images first; the
    # size check itself: tests/unit/compute/test_block_device_mapping.py).
    image_bdm = body(block_device_mapping_v2=[
        sh.root_bdm(volume_id, source_type='image')])
    no_name = body()
    del no_name['server']['name']
    return [
        (sh.LATEST, body(flavorRef='no-such-flavor'), 'no-such-flavor'),
        # An image beside the root volume must exist, as Nova checks it.
        (sh.LATEST, body(imageRef='70a599e0-31e7-49b7-b260-868f441e862b'),
         'Can not find requested image'),
        (sh.LATEST, no_root, 'boot_index'),
        (sh.LATEST, body(networks='private'), 'networks'),
        (sh.LATEST, body(color='red'), 'color'),
        (sh.LATEST, body(min_count=2), 'min_count'),
        (sh.LATEST, body(max_count=2), 'max_count'),
        ('2.37', no_networks, 'networks'),
        (sh.LATEST, snapshot_bdm, 'failed to get snapshot'),
        (sh.LATEST, image_bdm, 'failed to get image'),
        (sh.LATEST, no_name, 'name'),
        ('2.1', body(description='new in 2.19'), 'description'),
        (sh.LATEST, body(availability_zone='nova:somehost'),
         'availability_zone'),
        (sh.LATEST, {'server': 'nope'}, 'server'),
    ]


def test_bad_input_is_400_and_reserves_nothing(cloud):
    user = cloud.project()
    volume = user.volume()
    for version, body, word in _bad_bodies(volume['id']):
        resp = user.compute(version).post('/servers', json=body)
        assert resp.status_code == 400, (version, body, resp.text)
        assert word in sh.message(resp), (word, resp.text)
    resp = user.compute(sh.LATEST).post(
        '/servers', data=b'{"server": {"name": ',
        headers={'Content-Type': 'application/json'})
    assert resp.status_code == 400, resp.text
    assert 'badRequest' in resp.json()
    assert user.compute().get('/servers').json()['servers'] == []
    user.assert_free(volume['id'])

    # Before 2.37 networks may be left out.
    no_networks = sh.server_body(volume['id'])
    del no_networks['server']['networks']
    resp = user.compute('2.1').post('/servers', json=no_networks)
    assert resp.status_code == 202, resp.text
    user.track(resp.json()['server']['id'])
    user.wait_server(resp.json()['server']['id'])


def _reserve(user, volume_id, complete=False):
    """An attachment made through the attachments API (not by a server)."""
    http = user.volumes('3.44')
    body = {'volume_uuid': volume_id}
    if complete:
        body['connector'] = {'host': 'elsewhere', 'mountpoint': '/dev/vdb'}
    resp = http.post('/attachments', json={'attachment': body})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    if complete:
        resp = http.post('/attachments/%s/action' % attachment['id'],
                         json={'os-complete': None})
        assert resp.status_code == 204, resp.text
    return attachment


def test_boot_from_a_volume_it_cannot_have_is_400(cloud):
    user = cloud.project()
    root = user.volume()
    reserved, in_use = user.volume(), user.volume()
    held = {reserved['id']: _reserve(user, reserved['id']),
            in_use['id']: _reserve(user, in_use['id'], complete=True)}
    assert user.show_volume(in_use['id'])['status'] == 'in-use'
    them = cloud.project()
    theirs = them.volume()
    unknown = str(uuid.uuid4())
    http = user.compute(sh.LATEST)

    for volume_id, word in ((reserved['id'], 'reserved'),
                            (in_use['id'], 'in-use'),
                            (theirs['id'], theirs['id']),
                            (unknown, unknown)):
        resp = http.post('/servers', json=sh.server_body(volume_id))
        assert resp.status_code == 400, resp.text
        assert word in sh.message(resp), resp.text
        # A second volume that cannot be had gives back the root it
        # reserved first.
        body = sh.server_body(root['id'])
        body['server']['block_device_mapping_v2'].append(
            dict(sh.root_bdm(volume_id), boot_index=-1))
        resp = http.post('/servers', json=body)
        assert resp.status_code == 400, resp.text
        assert volume_id in sh.message(resp)
        user.assert_free(root['id'])
    body = sh.server_body(root['id'])
    body['server']['block_device_mapping_v2'].append(
        dict(sh.root_bdm(root['id']), boot_index=1))
    resp = http.post('/servers', json=body)
    assert resp.status_code == 400
    assert 'twice' in sh.message(resp)

    assert http.get('/servers').json()['servers'] == []
    user.assert_free(root['id'])
    them.assert_free(theirs['id'])
    for volume_id, attachment in held.items():
        # Still held by what held them, and nothing more.
        assert [a['id'] for a in user.attachments(volume_id)] == [
            attachment['id']]
        resp = user.volumes('3.44').delete('/attachments/%s'
                                           % attachment['id'])
        assert resp.status_code == 200, resp.text


# Failures --------------------------------------------------------------------

def test_guest_that_fails_to_start_is_error_with_a_fault(cloud, tmp_path):
    user = cloud.project()
    volume = user.volume()
    path = user.aio.volume_path(volume['id'])
    # Another process (qemu-nbd, as a guest or export outside tether
    # would) holds the volume file for writing: the guest's QEMU cannot
    # lock it and does not start.
    socket = os.path.join(tmp_path, 'nbd.sock')
    holder = subprocess.Popen(['qemu-nbd', '-f', 'raw', '-k', socket, path],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        # It listens once it holds the file.
        user.wait(lambda: os.path.exists(socket), timeout=10,
                  what='qemu-nbd holding %s' % path)
        server = user.boot(volume, wait=False)
        server = user.wait_server(server.id, 'ERROR')
    finally:
        holder.terminate()
        holder.wait(10)

    assert server.vm_state == 'error'
    assert server.task_state is None
    fault = user.server(server.id)['fault']
    assert fault['code'] == 500
    assert fault['message'].startswith('Hypervisor error'), fault
    # The details of a server error are for admins only.
    assert 'details' not in fault
    details = cloud.admin().server(server.id)['fault']['details']
    assert details.startswith('VirtError'), details
    assert 'Failed to get shared "write" lock' in details
    assert sh.domain_state(server.id) is None
    user.assert_free(volume['id'])
    assert user.server(server.id)[
        'os-extended-volumes:volumes_attached'] == []
    # An ERROR server can be deleted.
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    user.assert_free(volume['id'])


def test_no_host_in_the_zone_is_error_with_a_fault(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume, wait=False, availability_zone='nowhere')
    server = user.wait_server(server.id, 'ERROR')
    shown = user.server(server.id)
    assert 'No valid host' in shown['fault']['message']
    assert 'nowhere' in shown['fault']['message']
    assert shown['OS-EXT-AZ:availability_zone'] == 'nowhere'
    assert shown['hostId'] == ''
    assert cloud.admin().server(server.id)['OS-EXT-SRV-ATTR:host'] is None
    user.assert_free(volume['id'])
    # It never ran anywhere; deleting it is done at once.
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    user.assert_free(volume['id'])
