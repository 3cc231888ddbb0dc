"""Rebuilding servers: the flow on the host, seen from inside the real
guest, with the real volume service, Glance and guests
(rebuild_helpers.py has what the rebuild tests share; the refusals are
in test_rebuild_refusals.py, the failures and races in
test_rebuild_failures.py)."""

import base64

import pytest
from tests.functional import cli
from tests.functional.compute import rebuild_helpers
from tests.functional.compute.rebuild_helpers import (
    FLAVOR, GiB, TINY_A, TINY_B, V2_93, no_os_image, rebuild, volume_from)
from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import helpers
from tests.functional import image_helpers

from tether.db.compute import instance as db_instances
from tether.drivers import qemu_img


# The fixtures of rebuild_helpers.
cloud = rebuild_helpers.cloud
tiny = rebuild_helpers.tiny


# The root volume re-imaged (2.93) -----------------------------------------

DATA_WORDS = 'data-volume-intact'


def test_rebuild_reimages_the_root_volume(cloud, tiny, notifications,
                                          monkeypatch):
    """The story of the spec, seen from inside the guest: booted from
    image A, rebuilt with B, it boots B on the same root volume, what it
    wrote there is gone, and its data volume stayed attached and intact."""
    user = cloud.project()
    root = volume_from(user, tiny[TINY_A])
    data = user.volume(size=1)
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(TINY_A)
    user.conn.compute.create_volume_attachment(server, volume_id=data['id'])
    user.wait_volume(data['id'], 'in-use')
    assert console.command('tether-guest stamp-write before-rebuild')[0] == 0
    rc, _ = console.command(
        'echo %s | dd of=/dev/sdb bs=512 seek=100 conv=notrunc' % DATA_WORDS)
    assert rc == 0
    usage = helpers.usage(user.project)
    looked_up = image_helpers.lookups(monkeypatch)

    resp = rebuild(user, server.id, tiny[TINY_B], name='rebuilt',
                   adminPass='Rebuild-pass-1')
    assert resp.status_code == 202, resp.text
    assert resp.json()['server']['status'] == 'REBUILD'
    # Answered back as Nova does (and set nowhere: no agent in a guest).
    assert resp.json()['server']['adminPass'] == 'Rebuild-pass-1'
    # From 2.57 with user_data: none, tether keeps none.
    assert resp.json()['server']['user_data'] is None
    assert resp.json()['server']['image'] == ''
    request_id = resp.headers['x-openstack-request-id']
    user.wait_server(server.id)

    # Inside: image B booted from the same root volume, the stamp gone,
    # the data volume still there with what was written on it.
    up = console.wait_up(TINY_B)
    disks = guest_console.by_serial(console.boot_disks(up))
    assert set(disks) == {root['id'], data['id']}
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert bootdisk['name'] == disks[root['id']]
    assert bootdisk['stamps'] == ''
    rc, out = console.command(
        'dd if=/dev/%s bs=512 skip=100 count=1 2>/dev/null | head -n 1'
        % disks[data['id']])
    assert (rc, out) == (0, [DATA_WORDS])

    # Outside: the same root volume, now of image B, attached once.
    shown = user.server(server.id, V2_93)
    assert shown['name'] == 'rebuilt'
    assert [v['id'] for v in shown['os-extended-volumes:volumes_attached']
            ] == [root['id'], data['id']]
    volume = user.show_volume(root['id'])
    assert volume['status'] == 'in-use'
    assert volume['volume_image_metadata']['image_id'] == tiny[TINY_B]
    assert [a['server_id'] for a in volume['attachments']] == [server.id]
    assert len(user.attachments(root['id'])) == 1
    assert user.show_volume(data['id'])['status'] == 'in-use'
    assert helpers.usage(user.project) == usage
    action = user.instance_action(server.id, request_id)
    assert action['action'] == 'rebuild'
    assert sorted((e['event'], e['result']) for e in action['events']) == [
        ('compute_rebuild_instance', 'Success'),
        ('compute_reimage_boot_volume', 'Success')]
    sent = [m['event_type'] for m in notifications()
            if m['payload'].get('instance_id') == server.id]
    assert sent == ['instance.rebuild.start', 'instance.rebuild.end']
    # The image was looked up by the compute API and by the volume API
    # (os-reimage, with the user's token); each host used what its API
    # read.
    assert looked_up == [tiny[TINY_B]] * 2


def test_a_stopped_server_is_rebuilt_stopped_with_the_cli(
        cloud, tiny, tmp_path):
    """``openstack server rebuild --image B --reimage-boot-volume
    --wait``, as a user types it."""
    user = cloud.project()
    root = volume_from(user, tiny[TINY_A])
    server = user.boot(root, flavor=FLAVOR)
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    openstack = cli.CLI(user.aio, tmp_path, user.user, user.project)
    shown = openstack.json('--os-compute-api-version', V2_93,
                           'server', 'rebuild', '--image', tiny[TINY_B],
                           '--reimage-boot-volume', '--wait', server.id)
    # The CLI prints the server as the rebuild answered it, and returns
    # once it is done.
    assert (shown['id'], shown['status']) == (server.id, 'REBUILD')
    assert user.server(server.id)['status'] == 'SHUTOFF'
    assert user.show_volume(root['id'])['volume_image_metadata'][
        'image_id'] == tiny[TINY_B]
    # Started, it boots B.
    user.conn.compute.start_server(server)
    user.wait_server(server.id)
    guest_console.GuestConsole(user.conn, server).wait_up(TINY_B)


def test_openstacksdk_rebuilds_an_error_server(cloud, tiny):
    """compute.rebuild_server re-images (openstacksdk asks for the
    newest version), and a server in ERROR comes back ACTIVE."""
    user = cloud.project()
    root = volume_from(user, tiny[TINY_A])
    server = user.boot(root, flavor=FLAVOR)
    db_instances.update(helpers.admin_context(), server.id,
                        {'vm_state': 'error'})
    user.conn.compute.rebuild_server(server, tiny[TINY_B])
    user.wait_server(server.id)
    guest_console.GuestConsole(user.conn, server).wait_up(TINY_B)
    assert user.conn.compute.get_server(server.id).fault is None


# Servers booted from images: a new local root disk ---------------------

def test_a_server_from_an_image_is_rebuilt_on_a_new_root_disk_with_the_cli(
        cloud, tiny, tmp_path):
    """``openstack server rebuild --image B --wait`` (the CLI's default
    microversion) on a server booted from image A onto a local disk,
    with a data volume: the guest boots B from a new root disk of the
    flavor's size and still sees its volume after it."""
    user = cloud.project()
    server = sh.boot_image(user, user.conn.image.get_image(tiny[TINY_A]),
                           flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(TINY_A)
    data = user.volume(size=2)
    user.conn.compute.create_volume_attachment(server, volume_id=data['id'])
    user.wait_volume(data['id'], 'in-use')
    openstack = cli.CLI(user.aio, tmp_path, user.user, user.project)
    shown = openstack.json('server', 'rebuild', '--image', tiny[TINY_B],
                           '--wait', server.id)
    assert (shown['id'], shown['status']) == (server.id, 'REBUILD')
    assert user.server(server.id)['status'] == 'ACTIVE'
    assert user.server(server.id)['image']['id'] == tiny[TINY_B]

    # Inside: image B on a root disk of the flavor's 1 GB, the volume
    # after it.
    up = console.wait_up(TINY_B)
    disks = console.boot_disks(up)
    names = guest_console.by_serial(disks)
    assert {serial: disks[name]['bytes'] for serial, name in names.items()
            } == {'': 1 * GiB, data['id']: 2 * GiB}
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert bootdisk['name'] == names['']
    # The root disk: an overlay on B's copy in the host's cache.
    info = qemu_img.info(sh.root_disk(server.id), 'qcow2', force_share=True)
    assert info.backing_file == sh.cached(tiny[TINY_B])
    # The volume kept its attachment throughout.
    [attachment] = user.attachments(data['id'])
    assert attachment['instance'] == server.id
    assert user.show_volume(data['id'])['status'] == 'in-use'


def _image_unchanged(user, server, image_id):
    shown = user.server(server.id)
    assert (shown['status'], shown['OS-EXT-STS:task_state']) == (
        'ACTIVE', None)
    assert shown['image']['id'] == image_id
    assert qemu_img.info(sh.root_disk(server.id), 'qcow2',
                         force_share=True).backing_file == \
        sh.cached(image_id)
    actions = user.compute(V2_93).get(
        '/servers/%s/os-instance-actions' % server.id).json()
    assert [a['action'] for a in actions['instanceActions']] == ['create']


@pytest.mark.parametrize('attrs,body,words', [
    ({}, {'reimage_boot_volume': True},
     'boots from an image, not a volume: reimage_boot_volume cannot be '
     'true'),
    ({'min_disk': 5}, {}, 'minimum size specified in image metadata'),
    ({'min_ram': 4096}, {}, "Flavor's memory is too small"),
    ({'container_format': 'ovf'}, {}, 'container format is ovf'),
], ids=['reimage-true', 'min-disk', 'min-ram', 'container-format'])
def test_refused_for_a_server_from_an_image(cloud, attrs, body, words):
    user = cloud.project()
    first = image_helpers.upload(user.conn, helpers.disk_bytes(b'first'))
    server = sh.boot_image(user, first)
    other = image_helpers.upload(user.conn, helpers.disk_bytes(b'other'),
                                 **attrs)
    resp = rebuild(user, server.id, other.id, **body)
    assert resp.status_code == 400, resp.text
    assert words in sh.message(resp)
    _image_unchanged(user, server, first.id)


def test_openstacksdk_rebuilds_a_server_from_an_image_at_2_93(cloud):
    """At 2.93 (openstacksdk's newest) a server from an image is rebuilt
    on a local disk all the same: there is no volume to re-image."""
    user = cloud.project()
    first = image_helpers.upload(user.conn, helpers.disk_bytes(b'first'))
    server = sh.boot_image(user, first)
    other = image_helpers.upload(user.conn, helpers.disk_bytes(b'other'))
    user.conn.compute.rebuild_server(server, other.id, name='renamed')
    shown = user.wait_server(server.id)
    assert (shown.name, shown.image.id) == ('renamed', other.id)
    assert qemu_img.info(sh.root_disk(server.id), 'qcow2',
                         force_share=True).backing_file == \
        sh.cached(other.id)
    with open(sh.cached(other.id), 'rb') as f:
        assert f.read() == helpers.disk_bytes(b'other')


# The server's key pair on a rebuild (2.54) ----------------------------------

def test_a_rebuild_sets_and_unsets_the_key_pair(cloud):
    """From 2.54 a rebuild takes ``key_name``: the caller's key pair of
    that name, or null to take it away; one the caller does not have is
    a 400 and the server is left as it was. (The root volume is kept:
    below 2.93, with the image it was made from.)"""
    user = cloud.project()
    image_id = no_os_image(user.conn)
    root = volume_from(user, image_id)
    server = user.boot(root)
    resp = user.compute('2.2').post('/os-keypairs', json={
        'keypair': {'name': 'rebuild-key'}})
    assert resp.status_code == 201, resp.text
    public_key = resp.json()['keypair']['public_key']

    resp = rebuild(user, server.id, image_id, '2.53',
                   key_name='rebuild-key')
    assert resp.status_code == 400, resp.text
    assert 'key_name' in resp.json()['badRequest']['message']
    resp = rebuild(user, server.id, image_id, '2.54', key_name='nokey')
    assert resp.status_code == 400, resp.text
    assert 'Invalid key_name provided' in resp.json()['badRequest'][
        'message']
    assert user.server(server.id, '2.54')['key_name'] is None
    for body in ({'key_name': ''}, {'key_name': 'k' * 256},
                 {'key_name': 5}):
        resp = rebuild(user, server.id, image_id, '2.54', **body)
        assert resp.status_code == 400, (body, resp.text)

    resp = rebuild(user, server.id, image_id, '2.54',
                   key_name='rebuild-key')
    assert resp.status_code == 202, resp.text
    assert resp.json()['server']['key_name'] == 'rebuild-key'
    # Before 2.75 the rest is the update's answer: no states, no zone,
    # no user_data before 2.57.
    assert not {'OS-EXT-STS:vm_state', 'OS-EXT-AZ:availability_zone',
                'user_data'} & set(resp.json()['server'])
    user.wait_server(server.id)
    assert user.server(server.id, '2.54')['key_name'] == 'rebuild-key'
    assert db_instances.get(helpers.admin_context(),
                            server.id).key_data == public_key

    resp = rebuild(user, server.id, image_id, '2.54', key_name=None)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)
    assert user.server(server.id, '2.54')['key_name'] is None


# The server's user data and access addresses on a rebuild ------------------

def test_a_rebuild_sets_the_user_data_from_2_57_and_the_addresses(cloud):
    """From 2.57 a rebuild takes ``user_data`` (null: none), and at every
    version ``accessIPv4`` and ``accessIPv6``; its answer has the user
    data from 2.57. Bad values are a 400 that changes nothing."""
    user = cloud.project()
    image_id = no_os_image(user.conn)
    server = user.boot(volume_from(user, image_id))
    script = base64.b64encode(b'#!/bin/sh\necho rebuilt\n').decode()
    admin = cloud.aio.compute_http('admin', 'admin', version='2.3')

    def user_data():
        return admin.get('/servers/%s' % server.id).json()['server'][
            'OS-EXT-SRV-ATTR:user_data']
    for version, body in (('2.56', {'user_data': script}),
                          ('2.57', {'user_data': 'not base64!'}),
                          ('2.57', {'accessIPv4': 'nope'})):
        resp = rebuild(user, server.id, image_id, version, **body)
        assert resp.status_code == 400, (version, body, resp.text)
        (key,) = body
        assert key in sh.message(resp), (version, resp.text)
    # Personality files up to 2.56, checked against the quota.
    files = [{'path': '/f', 'contents': 'eA=='}] * 6
    resp = rebuild(user, server.id, image_id, '2.56', personality=files)
    assert resp.status_code == 403, resp.text
    assert 'Personality file limit exceeded' in resp.text
    resp = rebuild(user, server.id, image_id, '2.57', personality=files[:1])
    assert resp.status_code == 400, resp.text
    assert user_data() is None
    assert user.server(server.id)['status'] == 'ACTIVE'

    resp = rebuild(user, server.id, image_id, '2.57', user_data=script,
                   accessIPv4='192.0.2.8')
    assert resp.status_code == 202, resp.text
    assert resp.json()['server']['user_data'] == script
    assert resp.json()['server']['accessIPv4'] == '192.0.2.8'
    user.wait_server(server.id)
    assert user_data() == script
    assert user.server(server.id)['accessIPv4'] == '192.0.2.8'

    resp = rebuild(user, server.id, image_id, '2.57', user_data=None)
    assert resp.status_code == 202, resp.text
    assert resp.json()['server']['user_data'] is None
    user.wait_server(server.id)
    assert user_data() is None
    # Left out, the addresses stay.
    assert user.server(server.id)['accessIPv4'] == '192.0.2.8'
