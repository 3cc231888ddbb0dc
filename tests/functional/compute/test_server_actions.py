"""Server actions over HTTP: os-stop, os-start, reboot, and their 409s.

A stopped guest's QEMU is gone, so the volume service may write the
file again; a started one holds it. The lock is probed as the volume
service would meet it (qemu-img resize, see server_helpers.locked).
"""

import pytest

from tests.functional.compute import server_helpers as sh


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _domain_id(server_id):
    """The id libvirt gives the running QEMU process of a guest."""
    return sh.virsh('domid', sh.domain(server_id)).stdout.strip()


def test_stop_releases_the_volume_file_and_start_takes_it(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    path = user.aio.volume_path(volume['id'])
    assert sh.locked(path)

    user.conn.compute.stop_server(server)
    stopped = user.wait_server(server.id, 'SHUTOFF')
    assert (stopped.vm_state, stopped.power_state) == ('stopped', 4)
    assert sh.domain_state(server.id) == 'shut off'
    assert not sh.locked(path)
    # A stopped server keeps its volume.
    shown = user.show_volume(volume['id'])
    assert shown['status'] == 'in-use'
    assert [a['server_id'] for a in shown['attachments']] == [server.id]

    user.conn.compute.start_server(server)
    started = user.wait_server(server.id, 'ACTIVE')
    assert (started.vm_state, started.power_state) == ('active', 1)
    assert sh.domain_state(server.id) == 'running'
    assert sh.locked(path)

    # Each action is recorded, newest first.
    resp = user.compute('2.1').get('/servers/%s/os-instance-actions'
                                   % server.id)
    assert resp.status_code == 200, resp.text
    assert [a['action'] for a in resp.json()['instanceActions']] == [
        'start', 'stop', 'create']


def test_reboot_soft_and_hard_run_a_new_qemu(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    path = user.aio.volume_path(volume['id'])
    seen = {_domain_id(server.id)}
    for reboot_type in ('SOFT', 'HARD'):
        resp = user.action(server.id, {'reboot': {'type': reboot_type}})
        assert resp.status_code == 202, resp.text
        rebooted = user.wait_server(server.id, 'ACTIVE')
        assert (rebooted.vm_state, rebooted.power_state) == ('active', 1)
        assert sh.locked(path)
        # tether's guests have no OS to reboot themselves: every reboot
        # is a new QEMU process.
        seen.add(_domain_id(server.id))
    assert len(seen) == 3
    # A hard reboot starts a stopped server (as in Nova).
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    user.conn.compute.reboot_server(server, 'HARD')
    user.wait_server(server.id, 'ACTIVE')
    assert sh.locked(path)


def _conflict(resp, *words):
    assert resp.status_code == 409, resp.text
    text = sh.message(resp)
    for word in words:
        assert word in text, (word, text)


def test_actions_in_the_wrong_state_are_409_naming_it(cloud):
    user = cloud.project()
    server = user.boot()

    _conflict(user.action(server.id, {'os-start': None}), 'start',
              'vm_state active')
    assert user.action(server.id, {'os-stop': None}).status_code == 202
    # Until the stop is done its task is named, then the stopped state.
    resp = user.action(server.id, {'os-stop': None})
    _conflict(resp, 'stop')
    assert ('task_state powering-off' in sh.message(resp) or
            'vm_state stopped' in sh.message(resp)), resp.text
    user.wait_server(server.id, 'SHUTOFF')
    _conflict(user.action(server.id, {'os-stop': None}), 'vm_state stopped')
    _conflict(user.action(server.id, {'reboot': {'type': 'SOFT'}}),
              'reboot', 'vm_state stopped')
    assert user.wait_server(server.id, 'SHUTOFF').vm_state == 'stopped'


def test_actions_of_a_server_without_a_host_are_409(cloud):
    # Nova checks the host before the state (check_instance_host).
    user = cloud.project()
    lost = user.boot(wait=False, availability_zone='nowhere')
    user.wait_server(lost.id, 'ERROR')
    for resp in (user.action(lost.id, {'os-start': None}),
                 user.action(lost.id, {'os-stop': None}),
                 user.action(lost.id, {'reboot': {'type': 'SOFT'}}),
                 user.action(lost.id, {'reboot': {'type': 'HARD'}})):
        _conflict(resp, lost.id, 'is not ready', 'no compute host')
        assert user.server(lost.id)['OS-EXT-STS:task_state'] is None


def test_bad_action_bodies_are_400(cloud):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    for body, word in (({'reboot': {'type': 'MEDIUM'}}, 'type'),
                       ({'reboot': {}}, 'type'),
                       ({'reboot': None}, 'reboot'),
                       ({'os-start': None, 'os-stop': None}, 'one key'),
                       ({'os-migrate': None}, 'os-migrate'),
                       ({}, 'one key'),
                       ([], 'one key')):
        resp = user.action(server.id, body)
        assert resp.status_code == 400, (body, resp.text)
        assert word in sh.message(resp), (word, resp.text)
    resp = user.compute().post('/servers/%s/action' % server.id,
                               data=b'{"os-stop"',
                               headers={'Content-Type': 'application/json'})
    assert resp.status_code == 400, resp.text
    # An unknown server is a 404 whatever the action.
    resp = user.action('00000000-0000-0000-0000-000000000000',
                       {'os-stop': None})
    assert resp.status_code == 404, resp.text
