"""The server actions rescue and unrescue over HTTP, on guests without an
OS booted from small images: the states the API shows, the guest's
definition in libvirt (the rescue disk added, first in the boot order,
the server's disks keeping their names), the 400s and 409s of Nova, two
rescues at once, and volume-backed servers below and from 2.87 (the tiny
Linux guest booting the rescue image is in test_real_guest_rescue.py)."""

import os
import threading
import uuid

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional.compute.test_servers_from_images import domain_disks
from tests.functional import helpers
from tests.functional import image_helpers
from tether.compute import rpcapi as compute_rpcapi
from tether.conf import CONF
from tether.db.compute import instance as db_instances
from tether.db.compute import service as db_compute_services
from tether.drivers import qemu_img

STABLE = {'hw_rescue_bus': 'scsi', 'hw_rescue_device': 'disk'}


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _conflict(resp, *words):
    assert resp.status_code == 409, resp.text
    for word in words:
        assert word in sh.message(resp), (word, resp.text)


def _bad(resp, *words):
    assert resp.status_code == 400, resp.text
    for word in words:
        assert word in sh.message(resp), (word, resp.text)


def _states(user, server_id):
    shown = user.server(server_id)
    return (shown['status'], shown['OS-EXT-STS:vm_state'],
            shown['OS-EXT-STS:task_state'], shown['OS-EXT-STS:power_state'])


def _actions(user, server_id):
    resp = user.compute('2.1').get('/servers/%s/os-instance-actions'
                                   % server_id)
    assert resp.status_code == 200, resp.text
    return [a['action'] for a in resp.json()['instanceActions']]


def _rescue_files(server_id):
    directory = os.path.join(CONF.instances_path, server_id)
    return sorted(n for n in os.listdir(directory)
                  if n in ('disk.rescue', 'unrescue.xml'))


def _image(user, words, **properties):
    return image_helpers.upload(user.conn, helpers.disk_bytes(words),
                                **properties)


def test_rescue_and_unrescue_a_server_from_an_image(cloud, notifications):
    user = cloud.project()
    image_a = _image(user, b'image a')
    image_b = _image(user, b'image b')
    server = sh.boot_image(user, image_a)
    root = sh.root_disk(server.id)

    resp = user.action(server.id, {'rescue': {
        'rescue_image_ref': image_b.id}})
    assert resp.status_code == 200, resp.text
    # A password made up for the answer, as Nova's (kept nowhere).
    assert set(resp.json()) == {'adminPass'}
    assert len(resp.json()['adminPass']) == CONF.password_length
    user.wait_server(server.id, 'RESCUE')
    assert _states(user, server.id) == ('RESCUE', 'rescued', None, 1)
    assert sh.domain_state(server.id) == 'running'
    # The rescue disk after the root disk, which keeps its name; the
    # guest boots from the rescue disk, an overlay on B's cached copy.
    rescue_disk = os.path.join(os.path.dirname(root), 'disk.rescue')
    assert domain_disks(server.id) == [
        ('sda', root, 'qcow2', None), ('sdb', rescue_disk, 'qcow2', '1')]
    info = qemu_img.info(rescue_disk, 'qcow2', force_share=True)
    assert info.backing_file == sh.cached(image_b.id)
    assert _rescue_files(server.id) == ['disk.rescue', 'unrescue.xml']
    # The server is still of its image A.
    assert user.server(server.id)['image']['id'] == image_a.id
    listed = user.compute('2.38').get('/servers?status=RESCUE').json()
    assert [s['id'] for s in listed['servers']] == [server.id]

    # What a rescued server refuses (Nova's states).
    for body in ({'rescue': None}, {'os-stop': None}, {'os-start': None},
                 {'pause': None}, {'suspend': None},
                 {'reboot': {'type': 'SOFT'}},
                 {'reboot': {'type': 'HARD'}},
                 {'rebuild': {'imageRef': image_a.id}}):
        _conflict(user.action(server.id, body), 'vm_state rescued')
    data = user.volume()
    resp = user.compute().post(
        '/servers/%s/os-volume_attachments' % server.id,
        json={'volumeAttachment': {'volumeId': data['id']}})
    _conflict(resp, 'vm_state rescued')

    # openstacksdk's call, as the CLI makes it.
    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert _states(user, server.id) == ('ACTIVE', 'active', None, 1)
    assert domain_disks(server.id) == [('sda', root, 'qcow2', '1')]
    assert _rescue_files(server.id) == []
    _conflict(user.action(server.id, {'unrescue': None}), 'unrescue',
              'vm_state active')
    assert _actions(user, server.id) == ['unrescue', 'rescue', 'create']
    resp = user.compute('2.51').get('/servers/%s/os-instance-actions'
                                    % server.id)
    rescue = resp.json()['instanceActions'][1]
    action = user.instance_action(server.id, rescue['request_id'])
    assert [(e['event'], e['result']) for e in action['events']] == [
        ('compute_rescue_instance', 'Success')]
    sent = [(m['event_type'], m['payload']['instance_id'])
            for m in notifications() if 'rescue' in m['event_type']]
    assert sent == [('instance.rescue.start', server.id),
                    ('instance.rescue.end', server.id),
                    ('instance.unrescue.start', server.id),
                    ('instance.unrescue.end', server.id)]


def test_a_stopped_server_is_rescued_with_its_own_image(cloud):
    # As Nova: the rescue image is the server's own when none is named;
    # the rescued guest runs; unrescue leaves the server ACTIVE.
    user = cloud.project()
    image = _image(user, b'own image')
    server = sh.boot_image(user, image)
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')

    resp = user.action(server.id, {'rescue': {'adminPass': 'Rescue-pw-1'}})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'adminPass': 'Rescue-pw-1'}
    user.wait_server(server.id, 'RESCUE')
    assert sh.domain_state(server.id) == 'running'
    info = qemu_img.info(os.path.join(CONF.instances_path, server.id,
                                      'disk.rescue'),
                         'qcow2', force_share=True)
    assert info.backing_file == sh.cached(image.id)
    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert sh.domain_state(server.id) == 'running'


def test_no_admin_password_while_the_option_is_off(cloud):
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'no password'))
    CONF.set_override('enable_instance_password', False)
    try:
        resp = user.action(server.id, {'rescue': {'adminPass': 'x-Y-z-1'}})
    finally:
        CONF.clear_override('enable_instance_password')
    assert resp.status_code == 200, resp.text
    assert resp.json() == {}
    user.wait_server(server.id, 'RESCUE')


def test_a_rescued_server_is_deleted_with_its_rescue_disk(cloud):
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'deleted rescued'))
    user.conn.compute.rescue_server(server)
    user.wait_server(server.id, 'RESCUE')
    resp = user.compute().delete('/servers/%s' % server.id)
    assert resp.status_code == 204, resp.text
    user.wait_gone(server.id)
    assert sh.domain_state(server.id) is None
    assert not os.path.exists(os.path.join(CONF.instances_path, server.id))


def test_the_image_cache_keeps_a_rescue_image(cloud):
    # The rescue disk is an overlay on the rescue image's cached copy:
    # the image cache manager keeps that copy while the disk exists.
    user = cloud.project()
    image_a = _image(user, b'cache a')
    image_b = _image(user, b'cache b')
    server = sh.boot_image(user, image_a)
    user.conn.compute.rescue_server(server, image=image_b.id)
    user.wait_server(server.id, 'RESCUE')
    driver = user.aio.impl.compute_service.manager.driver
    assert image_b.id not in driver.manage_image_cache(
        set(), min_age_seconds=0)
    assert os.path.exists(sh.cached(image_b.id))
    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert image_b.id in driver.manage_image_cache(set(),
                                                   min_age_seconds=0)


def test_a_rescued_server_keeps_its_volumes_attached(cloud):
    # The data volume stays attached under its name while rescued (after
    # the root disk, before the rescue disk); it is not detached then
    # (409, as Nova, and Tempest's rescue negative tests ask).
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'with a volume'))
    data = user.volume()
    user.conn.compute.create_volume_attachment(server, volume_id=data['id'])
    user.wait_volume(data['id'], 'in-use')
    path = user.aio.volume_path(data['id'])
    root = sh.root_disk(server.id)
    rescue_disk = os.path.join(os.path.dirname(root), 'disk.rescue')

    user.conn.compute.rescue_server(server)
    user.wait_server(server.id, 'RESCUE')
    assert domain_disks(server.id) == [
        ('sda', root, 'qcow2', None), ('sdb', path, 'raw', None),
        ('sdc', rescue_disk, 'qcow2', '1')]
    assert sh.locked(path)
    resp = user.compute().delete('/servers/%s/os-volume_attachments/%s'
                                 % (server.id, data['id']))
    _conflict(resp, 'vm_state rescued')

    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert domain_disks(server.id) == [
        ('sda', root, 'qcow2', '1'), ('sdb', path, 'raw', None)]
    assert user.show_volume(data['id'])['status'] == 'in-use'
    user.conn.compute.delete_volume_attachment(data['id'], server)
    user.wait_volume(data['id'], 'available')


def test_an_attach_that_meets_a_rescue_on_the_host_is_refused(cloud):
    # The API checked the server's state before a rescue claimed it; on
    # the host the rescue ran first: the attach is refused there (it
    # would change the rescue's definition, which unrescue drops) and
    # undone, and the volume is available again.
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'attach race'))
    user.conn.compute.rescue_server(server)
    user.wait_server(server.id, 'RESCUE')
    data = user.volume()
    ctx = helpers.admin_context()
    # As the API saw the server before the rescue.
    db_instances.update(ctx, server.id, {'vm_state': 'active'})
    try:
        resp = user.compute().post(
            '/servers/%s/os-volume_attachments' % server.id,
            json={'volumeAttachment': {'volumeId': data['id']}})
    finally:
        db_instances.update(ctx, server.id, {'vm_state': 'rescued'})
    _conflict(resp, 'vm_state rescued')
    user.wait_volume(data['id'], 'available')
    assert [d[0] for d in domain_disks(server.id)] == ['sda', 'sdb']
    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')


# Volume-backed servers (2.87) -------------------------------------------

def test_a_volume_backed_server_is_rescued_from_2_87(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    plain = _image(user, b'no properties')
    stable = _image(user, b'stable rescue', **STABLE)

    body = {'rescue': {'rescue_image_ref': stable.id}}
    _bad(user.action(server.id, body, version='2.86'),
         'Cannot rescue a volume-backed instance')
    _bad(user.action(server.id, {'rescue': None}, version='2.86'),
         'Cannot rescue a volume-backed instance')
    _bad(user.action(server.id, {'rescue': None}, version='2.87'),
         'rescue_image_ref')
    _bad(user.action(server.id, {'rescue': {'rescue_image_ref': plain.id}},
                     version='2.87'),
         'hw_rescue_bus', 'hw_rescue_device')
    assert _states(user, server.id) == ('ACTIVE', 'active', None, 1)
    assert _actions(user, server.id) == ['create']

    resp = user.action(server.id, body, version='2.87')
    assert resp.status_code == 200, resp.text
    user.wait_server(server.id, 'RESCUE')
    path = user.aio.volume_path(volume['id'])
    rescue_disk = os.path.join(CONF.instances_path, server.id,
                               'disk.rescue')
    assert domain_disks(server.id) == [
        ('sda', path, 'raw', None), ('sdb', rescue_disk, 'qcow2', '1')]
    assert sh.locked(path)
    assert user.show_volume(volume['id'])['status'] == 'in-use'

    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert domain_disks(server.id) == [('sda', path, 'raw', '1')]
    assert user.show_volume(volume['id'])['status'] == 'in-use'


# Refusals -------------------------------------------------------------------

def test_refusals_of_rescue_and_unrescue(cloud):
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'refusals'))
    _bad(user.action(server.id, {'rescue': {
        'rescue_image_ref': str(uuid.uuid4())}}),
        'rescue image', 'not supported')
    resp = user.action(str(uuid.uuid4()), {'rescue': None})
    assert resp.status_code == 404, resp.text
    resp = user.action(str(uuid.uuid4()), {'unrescue': None})
    assert resp.status_code == 404, resp.text
    _conflict(user.action(server.id, {'unrescue': None}),
              'vm_state active')
    user.conn.compute.pause_server(server)
    user.wait_server(server.id, 'PAUSED')
    _conflict(user.action(server.id, {'rescue': None}), 'vm_state paused')
    user.conn.compute.unpause_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert _actions(user, server.id) == ['unpause', 'pause', 'create']


def test_a_locked_server_refuses_them_to_its_owner(cloud):
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'locked'))
    assert user.action(server.id, {'lock': None}).status_code == 202
    _conflict(user.action(server.id, {'rescue': None}),
              'Instance %s is locked.' % server.id)
    admin = cloud.admin()
    assert admin.action(server.id, {'rescue': None}).status_code == 200
    user.wait_server(server.id, 'RESCUE')
    _conflict(user.action(server.id, {'unrescue': None}), 'is locked')
    assert admin.action(server.id, {'unrescue': None}).status_code == 202
    user.wait_server(server.id, 'ACTIVE')
    assert _actions(user, server.id) == ['unrescue', 'rescue', 'lock',
                                         'create']


def test_two_rescues_at_once_one_wins(cloud):
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'race'))
    barrier = threading.Barrier(2)
    results = []

    def rescue():
        http = user.compute()
        barrier.wait()
        results.append(http.post('/servers/%s/action' % server.id,
                                 json={'rescue': None}))
    threads = [threading.Thread(target=rescue) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409], [r.text for r in results]
    loser = [r for r in results if r.status_code == 409][0]
    assert ('task_state rescuing' in sh.message(loser) or
            'vm_state rescued' in sh.message(loser)), loser.text
    user.wait_server(server.id, 'RESCUE')
    assert _actions(user, server.id) == ['rescue', 'create']


def test_on_an_old_host_or_pin(cloud, levels, monkeypatch):
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'old host'))
    ctx = helpers.admin_context()
    (service,) = [s for s in db_compute_services.get_all(
        ctx, binary='tether-compute')
        if s.host == db_instances.get(ctx, server.id).host]
    db_compute_services.update(ctx, service.id, {'version': 8})
    try:
        resp = user.action(server.id, {'rescue': None})
    finally:
        db_compute_services.update(ctx, service.id,
                                   {'version': service.version})
    _conflict(resp, 'service version 8', 'needs 9')

    levels('compute', '1.6')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    resp = user.action(server.id, {'rescue': None})
    _conflict(resp, 'needs tether-compute RPC version 1.7', 'holds the '
              'API at 1.6')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    assert _states(user, server.id) == ('ACTIVE', 'active', None, 1)
    assert _actions(user, server.id) == ['create']


def test_a_rescue_that_fails_on_the_host_leaves_the_guest_as_it_was(cloud):
    # The rescue image's data no longer matches its hash: the host's
    # download of it fails. As Nova: the server in ERROR with a fault;
    # the guest's own definition is back (and no rescue file left), and
    # a rescue from ERROR with a good image works.
    user = cloud.project()
    image = _image(user, b'good')
    broken = _image(user, b'broken')
    image_helpers.tamper(user.aio, broken.id, offset=0)
    server = sh.boot_image(user, image)
    root = sh.root_disk(server.id)
    resp = user.action(server.id, {'rescue': {
        'rescue_image_ref': broken.id}})
    assert resp.status_code == 200, resp.text
    user.wait_server(server.id, 'ERROR')
    shown = user.server(server.id)
    assert shown['OS-EXT-STS:task_state'] is None
    assert shown['fault']['message'], shown['fault']
    assert domain_disks(server.id) == [('sda', root, 'qcow2', '1')]
    assert _rescue_files(server.id) == []
    request_id = resp.headers['x-openstack-request-id']
    user.wait_events(server.id, request_id,
                     [('compute_rescue_instance', 'Error')])

    user.conn.compute.rescue_server(server, image=image.id)
    # (wait_server stops at ERROR, which the server shows until then)
    user.wait(lambda: user.server(server.id)['status'] == 'RESCUE',
              timeout=sh.TIMEOUT, what='the rescue from ERROR')
    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert domain_disks(server.id) == [('sda', root, 'qcow2', '1')]


def test_a_server_with_shares_is_not_rescued(cloud):
    # A share is attached to a stopped server; the mapping row as the
    # attach leaves it once its host has access (no Manila here).
    from tether.db.compute import share_mapping as db_shares
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'shares'))
    ctx = helpers.admin_context()
    share_id = str(uuid.uuid4())
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    db_shares.create(ctx, server.id, share_id, 'tag1', '/exports/x',
                     'NFS', ('stopped',))
    try:
        _conflict(user.action(server.id, {'rescue': None}),
                  'feature not supported with instances that have '
                  'shares')
    finally:
        db_shares.destroy(ctx, server.id, share_id, ('attaching',))
    assert _states(user, server.id) == ('SHUTOFF', 'stopped', None, 4)
    assert _actions(user, server.id) == ['stop', 'create']


def test_a_reader_may_not(cloud):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    reader = sh.Project(cloud, 'reader-' + user.user, user.project,
                        ['reader'])
    for action, rule in (('rescue', 'os_compute_api:os-rescue'),
                         ('unrescue', 'os_compute_api:os-unrescue')):
        resp = reader.action(server.id, {action: None})
        assert resp.status_code == 403, resp.text
        assert rule in sh.message(resp), resp.text


@pytest.mark.parametrize('body,word', [
    ({'rescue': {'x': 1}}, 'x'),
    ({'rescue': {'rescue_image_ref': 'not-a-uuid'}}, 'rescue_image_ref'),
    ({'rescue': {'adminPass': 5}}, 'adminPass'),
    ({'rescue': 'now'}, 'rescue'),
    ({'unrescue': {'x': 1}}, 'x'),
    ({'unrescue': []}, 'unrescue'),
    ({'rescue': None, 'unrescue': None}, 'one key'),
])
def test_bad_bodies_are_400(cloud, body, word):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    resp = user.action(server.id, body)
    assert resp.status_code == 400, (body, resp.text)
    assert word in sh.message(resp), resp.text


# A restart of tether-compute -------------------------------------------------

def test_a_restart_keeps_rescued_servers_rescued(cloud):
    # A rescued guest is told by the definition the driver keeps: a
    # restart leaves it rescued (the same QEMU), settles an interrupted
    # unrescue as rescued (unrescue then works) and an interrupted
    # rescue whose guest was not touched as active.
    user = cloud.project()
    image = _image(user, b'restart')
    rescued, unrescuing, rescuing = (sh.boot_image(user, image)
                                     for _ in range(3))
    for server in (rescued, unrescuing):
        user.conn.compute.rescue_server(server)
        user.wait_server(server.id, 'RESCUE')
    domid = sh.virsh('domid', sh.domain(rescued.id)).stdout
    ctx = helpers.admin_context()

    def while_down():
        db_instances.update(ctx, unrescuing.id, {'task_state': 'unrescuing'})
        db_instances.update(ctx, rescuing.id, {'task_state': 'rescuing'})

    user.aio.restart_compute_service(while_down)

    assert _states(user, rescued.id) == ('RESCUE', 'rescued', None, 1)
    assert sh.virsh('domid', sh.domain(rescued.id)).stdout == domid
    user.wait(lambda: user.server(unrescuing.id)[
        'OS-EXT-STS:task_state'] is None, what='the unrescue settled')
    assert _states(user, unrescuing.id) == ('RESCUE', 'rescued', None, 1)
    user.wait(lambda: user.server(rescuing.id)[
        'OS-EXT-STS:task_state'] is None, what='the rescue settled')
    assert _states(user, rescuing.id) == ('ACTIVE', 'active', None, 1)

    user.conn.compute.unrescue_server(unrescuing)
    user.wait_server(unrescuing.id, 'ACTIVE')
    assert _rescue_files(unrescuing.id) == []
    assert domain_disks(unrescuing.id) == [
        ('sda', sh.root_disk(unrescuing.id), 'qcow2', '1')]
