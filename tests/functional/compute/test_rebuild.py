"""Rebuilding servers: the checks of the API, the flow on the host, the
failures, the races, with the real volume service, Glance and guests.

Servers here boot from volumes made from images in the aio's Glance:
the tiny test guest (``tether-tiny-a``, ``tether-tiny-b``) where a test
looks inside, an image with no operating system where it does not (the
guest then just holds its disks, which is all a flow needs).
"""

import contextlib
import io
import os
import threading
import time
import types
import uuid

from oslo_concurrency import lockutils
from oslo_config import cfg
import pytest
from tests.functional import cli
from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import helpers
from tests.functional import image_helpers

from tether.compute import rpcapi as compute_rpcapi
from tether.compute import version as compute_version
from tether.db.compute import instance as db_instances
from tether.db.compute import service as db_compute_services
from tether.drivers import qemu_img
from tether.volume.ops import reimage as reimage_ops

CONF = cfg.CONF
MiB = 1024 ** 2
GiB = 1024 ** 3
TINY_A, TINY_B = 'tether-tiny-a', 'tether-tiny-b'
# m1.micro (128 MiB): the tiny guest's kernel needs more than 64.
FLAVOR = '2'
V2_92, V2_93 = '2.92', '2.93'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture(scope='module')
def tiny(aio, guest_images):
    """{marker: image id} of the tiny guest's images, public in Glance."""
    admin = aio.admin()
    found = {}
    for marker in (TINY_A, TINY_B):
        with open(guest_images[marker], 'rb') as f:
            image = admin.image.create_image(
                name='%s-%s' % (marker, uuid.uuid4().hex[:6]), data=f,
                disk_format='raw', container_format='bare',
                visibility='public')
        found[marker] = image.id
    yield found
    for image_id in found.values():
        admin.image.delete_image(image_id, ignore_missing=True)


def no_os_image(conn, marker=b'no os'):
    """An image with a partition table and no operating system."""
    image = conn.image.create_image(
        name='no-os-' + uuid.uuid4().hex[:6],
        data=io.BytesIO(helpers.disk_bytes(marker)),
        disk_format='raw', container_format='bare')
    return image.id


def volume_from(user, image_id, size=1):
    volume = helpers.create_volume(user.volumes('3.71'), size=size,
                                   imageRef=image_id, wait_for=user.wait)
    user.cloud.volumes.append((user, volume['id']))
    return volume


def rebuild(user, server_id, image_id, version=V2_93, **body):
    return user.action(server_id, {'rebuild': dict(imageRef=image_id,
                                                   **body)}, version)


def booted_from_image(user, image_id=None):
    """A server on a volume made from ``image_id`` (an image without an
    OS if not given): (server, root volume)."""
    root = volume_from(user, image_id or no_os_image(user.conn))
    return user.boot(root), root


# Refused before anything changes -----------------------------------------

def _unchanged(user, server, root):
    shown = user.server(server.id)
    assert (shown['status'], shown['OS-EXT-STS:task_state']) == (
        'ACTIVE', None)
    volume = user.show_volume(root['id'])
    assert volume['status'] == 'in-use'
    assert [a['server_id'] for a in volume['attachments']] == [server.id]
    actions = user.compute(V2_93).get(
        '/servers/%s/os-instance-actions' % server.id).json()
    assert [a['action'] for a in actions['instanceActions']] == ['create']


def test_another_image_below_2_93_is_refused(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    other = no_os_image(user.conn, b'other')
    resp = rebuild(user, server.id, other, V2_92)
    assert resp.status_code == 400, resp.text
    assert ('Unable to rebuild with a different image for a volume-backed '
            'server') in sh.message(resp)
    assert resp.json()['badRequest']['error_code'] == \
        'compute.image.unacceptable'
    _unchanged(user, server, root)


@pytest.mark.parametrize('body,version,words', [
    ({'reimage_boot_volume': False}, V2_93, 'reimage_boot_volume cannot '
                                            'be false'),
    ({'reimage_boot_volume': 'true'}, V2_93, 'It must be true or false '
                                             '(a JSON boolean)'),
    ({'reimage_boot_volume': True}, V2_92, 'reimage_boot_volume'),
    ({'key_name': 'mykey'}, V2_93, 'key_name'),
    ({'user_data': 'aGk='}, V2_93, 'user_data'),
    ({'personality': []}, V2_93, 'personality'),
    ({'hostname': 'a_b'}, V2_93, 'hostname'),
    ({'description': 'd'}, '2.18', 'description'),
], ids=['reimage-false', 'reimage-string', 'reimage-below-2.93',
        'key-name', 'user-data', 'personality', 'bad-hostname',
        'description-below-2.19'])
def test_bodies_that_are_refused(cloud, body, version, words):
    user = cloud.project()
    server, root = booted_from_image(user)
    made_from = user.show_volume(root['id'])['volume_image_metadata']
    resp = rebuild(user, server.id, made_from['image_id'], version, **body)
    assert resp.status_code == 400, resp.text
    assert words in sh.message(resp)
    _unchanged(user, server, root)


@pytest.mark.parametrize('image', ['7c0d6a4e-96a5-4a8f-a3a5-0c0f3f1c2b01',
                                   'not-an-image'],
                         ids=['unknown-id', 'not-an-id'])
def test_an_image_that_cannot_be_found(cloud, image):
    user = cloud.project()
    server, root = booted_from_image(user)
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 400, resp.text
    assert 'Cannot find image %s for rebuild.' % image == sh.message(resp)
    _unchanged(user, server, root)


def test_an_image_that_is_not_active(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    queued = user.conn.image.create_image(name='queued', disk_format='raw',
                                          container_format='bare')
    resp = rebuild(user, server.id, queued.id)
    assert resp.status_code == 400, resp.text
    assert 'is not active' in sh.message(resp)
    _unchanged(user, server, root)


def test_an_image_larger_than_the_root_volume(cloud, tmp_path):
    user = cloud.project()
    server, root = booted_from_image(user)
    big = user.conn.image.create_image(
        name='big', data=io.BytesIO(bytes(MiB)), disk_format='raw',
        container_format='bare', min_disk=2)
    resp = rebuild(user, server.id, big.id)
    assert resp.status_code == 400, resp.text
    assert ('its min_disk, 2GB, is larger than the root volume %s (1GB)'
            % root['id']) in sh.message(resp)
    _unchanged(user, server, root)


def test_a_multiattach_root_volume_is_not_reimaged(cloud):
    admin = cloud.admin()
    types = admin.volumes('3.71')
    name = 'multi-' + uuid.uuid4().hex[:6]
    resp = types.post('/types', json={'volume_type': {
        'name': name, 'extra_specs': {'multiattach': '<is> True'}}})
    assert resp.status_code == 200, resp.text
    user = cloud.project()
    image = no_os_image(user.conn)
    root = helpers.create_volume(user.volumes('3.71'), size=1,
                                 imageRef=image, volume_type=name,
                                 wait_for=user.wait)
    cloud.volumes.append((user, root['id']))
    assert root['multiattach'] is True
    server = user.boot(root)
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 400, resp.text
    assert 'is multiattach' in sh.message(resp)
    _unchanged(user, server, root)


def test_a_server_in_a_task_or_locked(cloud, aio):
    user = cloud.project()
    server, root = booted_from_image(user)
    image = user.show_volume(root['id'])['volume_image_metadata'][
        'image_id']
    ctx = helpers.admin_context()
    db_instances.update(ctx, server.id, {'task_state': 'powering-off'})
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert 'task_state powering-off' in sh.message(resp)
    # Locked (tether has no lock action yet: the column, as an admin's
    # lock would set it).
    db_instances.update(ctx, server.id, {'task_state': None,
                                         'locked': True})
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert sh.message(resp) == 'Instance %s is locked.' % server.id
    db_instances.update(ctx, server.id, {'locked': False})
    _unchanged(user, server, root)


def test_a_reader_may_not_rebuild(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    reader = sh.Project(cloud, 'reader-' + uuid.uuid4().hex[:6],
                        user.project, ['reader'])
    resp = rebuild(reader, server.id, str(uuid.uuid4()))
    assert resp.status_code == 403, resp.text
    assert 'os_compute_api:servers:rebuild' in sh.message(resp)
    _unchanged(user, server, root)


# A root volume kept (below 2.93, the image it was made from) ----------------

def test_rebuild_with_the_same_image_below_2_93_keeps_the_root_volume(
        cloud, tiny):
    """The guest is made again on the same root volume: the file the
    guest wrote before is still there, as Nova keeps it."""
    user = cloud.project()
    root = volume_from(user, tiny[TINY_A])
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(TINY_A)
    rc, _ = console.command('tether-guest stamp-write before-rebuild')
    assert rc == 0

    resp = rebuild(user, server.id, tiny[TINY_A], V2_92, name='renamed',
                   metadata={'k': 'v'})
    assert resp.status_code == 202, resp.text
    body = resp.json()['server']
    assert body['status'] == 'REBUILD'
    assert (body['name'], body['metadata']) == ('renamed', {'k': 'v'})
    user.wait_server(server.id)

    up = console.wait_up(TINY_A)
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert bootdisk['stamps'] == 'before-rebuild'
    assert console.boot_disks(up)['sda']['serial'] == root['id']
    volume = user.show_volume(root['id'])
    assert volume['status'] == 'in-use'
    assert [a['server_id'] for a in volume['attachments']] == [server.id]
    events = [e['event'] for e in user.instance_action(
        server.id, resp.headers['x-openstack-request-id'])['events']]
    assert events == ['compute_rebuild_instance']


# The deployment cannot rebuild: refused with 409 ----------------------------

@pytest.fixture
def moved_to(aio):
    """Put a server on a made-up host whose record says ``version`` and
    ``traits`` (no tether-compute serves it: every check must refuse
    before anything is sent there); moved back after the test."""
    moved = []
    ctx = helpers.admin_context()

    def move(server, version, traits):
        host = 'other-%s' % uuid.uuid4().hex[:6]
        record = db_compute_services.register(
            ctx, host, 'tether-compute', 'tether-compute', 'nova', version,
            compute_version.rpc_version_of(version))
        db_compute_services.heartbeat(ctx, record.id, traits=traits)
        original = db_instances.get(ctx, server.id).host
        db_instances.update(ctx, server.id, {'host': host})
        moved.append((server.id, original, record.id))
    yield move
    for server_id, original, record_id in moved:
        db_instances.update(ctx, server_id, {'host': original})
        db_compute_services.destroy(ctx, record_id)


@pytest.mark.parametrize('version,traits,words', [
    (4, ['COMPUTE_REBUILD_BFV'], 'cannot serve rebuild: it is at service '
                                 'version 4, and rebuild needs 5'),
    (5, ['COMPUTE_VOLUME_EXTEND'], 'cannot rebuild volume-backed servers: '
                                   'it does not report the trait '
                                   'COMPUTE_REBUILD_BFV'),
], ids=['older-host', 'no-trait'])
def test_a_host_that_cannot_rebuild(cloud, moved_to, version, traits,
                                    words):
    user = cloud.project()
    server, root = booted_from_image(user)
    image = user.show_volume(root['id'])['volume_image_metadata'][
        'image_id']
    moved_to(server, version, traits)
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert words in sh.message(resp)
    _unchanged(user, server, root)


def test_a_compute_api_pinned_below_rebuilds(cloud, levels, monkeypatch):
    user = cloud.project()
    server, root = booted_from_image(user)
    image = user.show_volume(root['id'])['volume_image_metadata'][
        'image_id']
    levels('compute', '1.2')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert ('rebuild needs tether-compute RPC version 1.3; '
            '[upgrade_levels] compute holds the API at 1.2') in \
        sh.message(resp)
    _unchanged(user, server, root)


# volume-reimaged: accepted from 2.93 ---------------------------------------

def test_the_volume_reimaged_event(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    service = cloud.admin().compute(V2_93)
    event = {'name': 'volume-reimaged', 'server_uuid': server.id,
             'tag': root['id'], 'status': 'completed'}
    # No rebuild waits for it: accepted, and dropped on the host.
    resp = service.post('/os-server-external-events',
                        json={'events': [event]})
    assert resp.status_code == 200, resp.text
    assert resp.json()['events'] == [dict(event, code=200)]
    # Its tag names the volume: without one it is refused (per event).
    untagged = dict(event)
    del untagged['tag']
    resp = service.post('/os-server-external-events',
                        json={'events': [untagged]})
    assert resp.status_code == 207, resp.text
    assert resp.json()['events'][0]['code'] == 400
    # Before 2.93 there is no such event.
    resp = cloud.admin().compute('2.92').post(
        '/os-server-external-events', json={'events': [event]})
    assert resp.status_code == 400, resp.text
    _unchanged(user, server, root)


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

    resp = rebuild(user, server.id, tiny[TINY_B], name='rebuilt')
    assert resp.status_code == 202, resp.text
    assert resp.json()['server']['status'] == 'REBUILD'
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


# Failures ----------------------------------------------------------------

@contextlib.contextmanager
def holding_the_host(server_id):
    """The compute host's lock of the server (tether-compute runs in this
    process): its rebuild waits until the block ends."""
    with lockutils.lock('tether-instance-%s' % server_id):
        yield


def test_a_reimage_the_volume_api_refuses_puts_the_server_back(
        cloud, tiny, notifications):
    """The image is deactivated after the compute API looked at it and
    before the host asks for the re-image: the volume API refuses (400),
    the root volume is as it was, and so is the server."""
    user = cloud.project()
    admin = cloud.admin()
    image = admin.conn.image.create_image(
        name='soon-inactive', data=io.BytesIO(helpers.disk_bytes(b'b')),
        disk_format='raw', container_format='bare', visibility='public')
    root = volume_from(user, tiny[TINY_A])
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(TINY_A)
    assert console.command('tether-guest stamp-write kept')[0] == 0
    with holding_the_host(server.id):
        resp = rebuild(user, server.id, image.id)
        assert resp.status_code == 202, resp.text
        admin.conn.image.deactivate_image(image)
    request_id = resp.headers['x-openstack-request-id']
    action = user.wait_events(server.id, request_id, [
        ('compute_reimage_boot_volume', 'Error'),
        ('compute_rebuild_instance', 'Error')])
    assert action['message'] == 'Error'
    shown = user.wait_server(server.id)
    assert shown.fault is None
    console.wait_up(TINY_A)
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert bootdisk['stamps'] == 'kept'
    volume = user.show_volume(root['id'])
    assert volume['status'] == 'in-use'
    assert volume['volume_image_metadata']['image_id'] == tiny[TINY_A]
    assert len(user.attachments(root['id'])) == 1
    sent = [m['event_type'] for m in notifications()
            if m['payload'].get('instance_id') == server.id]
    assert sent == ['instance.rebuild.start', 'instance.rebuild.error']
    admin.conn.image.delete_image(image)


def test_a_reimage_that_fails_is_error_at_once_and_a_rebuild_fixes_it(
        cloud, aio, tiny, guest_images):
    """The image's data in Glance's store no longer matches its hash:
    the volume service fails the re-image and says so at once
    (volume-reimaged, failed), so the server is in ERROR long before
    [DEFAULT] reimage_timeout_per_gb; once the cause is fixed (the data
    back, the root volume reset to reserved), a rebuild works."""
    CONF.set_override('reimage_timeout_per_gb', 120)
    user = cloud.project()
    admin = cloud.admin()
    with open(guest_images[TINY_B], 'rb') as f:
        good = f.read()
    image = admin.conn.image.create_image(
        name='breaks', data=io.BytesIO(good), disk_format='raw',
        container_format='bare', visibility='public')
    stored = os.path.join(aio.impl.glance.state_dir, 'images', image.id)
    root = volume_from(user, tiny[TINY_A])
    server = user.boot(root, flavor=FLAVOR)
    usage = helpers.usage(user.project)
    with open(stored, 'r+b') as f:
        f.seek(MiB)
        f.write(b'broken')
    started = time.monotonic()
    resp = rebuild(user, server.id, image.id)
    assert resp.status_code == 202, resp.text
    shown = user.wait_server(server.id, 'ERROR')
    assert time.monotonic() - started < 60
    assert 'with status failed' in shown.fault['message']
    volume = user.show_volume(root['id'])
    assert volume['status'] == 'error'
    assert len(user.attachments(root['id'])) == 1
    assert helpers.usage(user.project) == usage

    with open(stored, 'wb') as f:
        f.write(good)
    resp = admin.volumes('3.71').post(
        '/volumes/%s/action' % root['id'],
        json={'os-reset_status': {'status': 'reserved'}})
    assert resp.status_code == 202, resp.text
    resp = rebuild(user, server.id, image.id)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)
    guest_console.GuestConsole(user.conn, server).wait_up(TINY_B)
    assert user.show_volume(root['id'])['volume_image_metadata'][
        'image_id'] == image.id
    assert len(user.attachments(root['id'])) == 1
    admin.conn.image.delete_image(image)
    CONF.clear_override('reimage_timeout_per_gb')


@pytest.fixture
def held_reimage(monkeypatch):
    """The volume host's re-images wait until ``release`` is set, then
    run as they would (a pass-through spy on
    tether.volume.ops.reimage.reimage): a slow volume service, whose API
    and attachments still answer. ``started`` is set when one waits."""
    held = types.SimpleNamespace(started=threading.Event(),
                                 release=threading.Event())
    real = reimage_ops.reimage

    def reimage(*args, **kwargs):
        held.started.set()
        assert held.release.wait(300), 'the re-image was never released'
        return real(*args, **kwargs)
    monkeypatch.setattr(reimage_ops, 'reimage', reimage)
    yield held
    held.release.set()


def test_a_reimage_that_does_not_answer_in_time(cloud, held_reimage):
    """The volume service is slow: the rebuild gives up after
    reimage_timeout_per_gb x 1 GiB (never 0 s) and the server is in
    ERROR; when the volume service is done it re-images the volume
    (nobody waits any more), and a rebuild works again."""
    CONF.set_override('reimage_timeout_per_gb', 1)
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'second')
    try:
        resp = rebuild(user, server.id, image)
        assert resp.status_code == 202, resp.text
        shown = user.wait_server(server.id, 'ERROR')
        assert ('did not answer with volume-reimaged within 1 seconds'
                in shown.fault['message'])
        assert user.show_volume(root['id'])['status'] == 'downloading'
    finally:
        CONF.clear_override('reimage_timeout_per_gb')
    held_reimage.release.set()
    volume = user.wait_volume(root['id'], 'reserved')
    assert volume['volume_image_metadata']['image_id'] == image
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)
    assert user.show_volume(root['id'])['status'] == 'in-use'
    assert len(user.attachments(root['id'])) == 1


# Races -------------------------------------------------------------------

def test_two_rebuilds_at_once(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'racing')
    results = helpers.race([lambda: rebuild(user, server.id, image)
                            for _ in range(2)])
    assert sorted(r.status_code for r in results) == [202, 409], [
        r.text for r in results]
    user.wait_server(server.id)
    assert user.show_volume(root['id'])['volume_image_metadata'][
        'image_id'] == image
    actions = user.compute(V2_93).get(
        '/servers/%s/os-instance-actions' % server.id).json()
    assert [a['action'] for a in actions['instanceActions']] == [
        'rebuild', 'create']


def test_a_delete_during_the_reimage_wait(cloud, held_reimage):
    """The delete ends the wait; the server goes, its root volume comes
    back available with no attachment (once the volume service is
    done)."""
    CONF.set_override('reimage_timeout_per_gb', 120)
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'deleted')
    try:
        resp = rebuild(user, server.id, image)
        assert resp.status_code == 202, resp.text
        assert held_reimage.started.wait(60)
        started = time.monotonic()
        user.conn.compute.delete_server(server)
        user.wait_gone(server.id)
        assert time.monotonic() - started < 60
    finally:
        CONF.clear_override('reimage_timeout_per_gb')
    held_reimage.release.set()
    user.wait_volume(root['id'], 'available')
    user.assert_free(root['id'])


def test_a_restart_of_tether_compute_during_the_wait(cloud, aio,
                                                     held_reimage):
    """The instance settles in ERROR (never stuck rebuilding), and a
    rebuild brings it back."""
    CONF.set_override('reimage_timeout_per_gb', 120)
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'restarted')
    try:
        resp = rebuild(user, server.id, image)
        assert resp.status_code == 202, resp.text
        assert held_reimage.started.wait(60)
        assert user.server(server.id)['OS-EXT-STS:task_state'] == \
            'rebuilding'
        aio.restart_compute_service()
        shown = user.wait_server(server.id, 'ERROR')
        assert 'interrupted by a restart of tether-compute' in \
            shown.fault['message']
    finally:
        CONF.clear_override('reimage_timeout_per_gb')
    held_reimage.release.set()
    user.wait_volume(root['id'], 'reserved')
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)
    assert len(user.attachments(root['id'])) == 1
