"""The server actions rescue and unrescue over HTTP, on guests without an
OS booted from small images: the states the API shows, the guest's
definition in libvirt (the rescue disk added, first in the boot order,
the server's disks keeping their names), volume-backed servers below
and from 2.87, and a restart of tether-compute (the refusals are in
test_rescue_refusals.py; the tiny Linux guest booting the rescue image is
in test_real_guest_rescue.py)."""

import os

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional.compute.test_servers_from_images import domain_disks
from tests.functional import helpers
from tests.functional import image_helpers
from tether.conf import CONF
from tether.db.compute import instance as db_instances
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
    # The rescue's notifications name the rescue image (Nova's field).
    assert {m['payload'].get('rescue_image_ref') for m in notifications()
            if m['event_type'].startswith('instance.rescue.')} == {
        image_b.id}


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
