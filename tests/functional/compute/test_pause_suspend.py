"""The server actions pause, unpause, suspend and resume over HTTP, on
guests without an OS: the states the API shows and libvirt's, the 409s
of the wrong state, a lock, a host or a pin too old, two pauses at once,
the policies and the bodies (a guest with an OS, whose console stops
while it is paused and whose memory survives a suspend, is in
test_real_guest_pause.py)."""

import threading

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tether.compute import rpcapi as compute_rpcapi
from tether.db.compute import instance as db_instances


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _conflict(resp, *words):
    assert resp.status_code == 409, resp.text
    for word in words:
        assert word in sh.message(resp), (word, resp.text)


def _states(user, server_id):
    shown = user.server(server_id)
    return (shown['status'], shown['OS-EXT-STS:vm_state'],
            shown['OS-EXT-STS:power_state'])


def _actions(user, server_id):
    resp = user.compute('2.1').get('/servers/%s/os-instance-actions'
                                   % server_id)
    assert resp.status_code == 200, resp.text
    return [a['action'] for a in resp.json()['instanceActions']]


def _listed(user, status):
    resp = user.compute('2.38').get('/servers?status=%s' % status)
    assert resp.status_code == 200, resp.text
    return [s['id'] for s in resp.json()['servers']]


def _saved(server_id):
    out = sh.virsh('dominfo', sh.domain(server_id)).stdout
    return {k.strip(): v.strip() for k, _, v in
            (line.partition(':') for line in out.splitlines())}[
                'Managed save']


def test_pause_and_unpause(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    path = user.aio.volume_path(volume['id'])

    resp = user.action(server.id, {'pause': None})
    assert resp.status_code == 202, resp.text
    assert resp.text == ''
    user.wait_server(server.id, 'PAUSED')
    assert _states(user, server.id) == ('PAUSED', 'paused', 3)
    assert sh.domain_state(server.id) == 'paused'
    assert _listed(user, 'PAUSED') == [server.id]
    assert _listed(user, 'ACTIVE') == []
    # The QEMU process is there, holding its volume.
    assert sh.locked(path)
    _conflict(user.action(server.id, {'pause': None}), 'pause',
              'vm_state paused')
    for body in ({'os-stop': None}, {'suspend': None},
                 {'reboot': {'type': 'SOFT'}}):
        _conflict(user.action(server.id, body), 'vm_state paused')

    # openstacksdk's calls, as the CLI makes them.
    user.conn.compute.unpause_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert _states(user, server.id) == ('ACTIVE', 'active', 1)
    assert sh.domain_state(server.id) == 'running'
    _conflict(user.action(server.id, {'unpause': None}), 'unpause',
              'vm_state active')
    assert _actions(user, server.id) == ['unpause', 'pause', 'create']
    # The compute host recorded its events.
    resp = user.compute('2.51').get('/servers/%s/os-instance-actions'
                                    % server.id)
    pause = resp.json()['instanceActions'][1]
    action = user.instance_action(server.id, pause['request_id'])
    assert [(e['event'], e['result']) for e in action['events']] == [
        ('compute_pause_instance', 'Success')]


def test_suspend_and_resume(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    path = user.aio.volume_path(volume['id'])
    domid = sh.virsh('domid', sh.domain(server.id)).stdout.strip()

    user.conn.compute.suspend_server(server)
    user.wait_server(server.id, 'SUSPENDED')
    # libvirt's managed save: the QEMU process is gone (so is its hold
    # of the volume), its memory is in a file libvirt keeps; Nova shows
    # the guest's power state as libvirt gives it, shut down (4).
    assert _states(user, server.id) == ('SUSPENDED', 'suspended', 4)
    assert sh.domain_state(server.id) == 'shut off'
    assert _saved(server.id) == 'yes'
    assert _listed(user, 'SUSPENDED') == [server.id]
    assert not sh.locked(path)
    assert user.show_volume(volume['id'])['status'] == 'in-use'
    for body in ({'os-start': None}, {'os-stop': None}, {'pause': None},
                 {'unpause': None}, {'suspend': None}):
        _conflict(user.action(server.id, body), 'vm_state suspended')
    # The console output of a guest that does not run: its last run's,
    # which the host keeps (as Nova serves it).
    resp = user.action(server.id, {'os-getConsoleOutput': {}})
    assert resp.status_code == 200, resp.text
    assert isinstance(resp.json()['output'], str)

    user.conn.compute.resume_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert _states(user, server.id) == ('ACTIVE', 'active', 1)
    assert sh.domain_state(server.id) == 'running'
    assert _saved(server.id) == 'no'
    assert sh.locked(path)
    # A new QEMU process, restored from the file.
    assert sh.virsh('domid', sh.domain(server.id)).stdout.strip() != domid
    _conflict(user.action(server.id, {'resume': None}), 'resume',
              'vm_state active')
    assert _actions(user, server.id) == ['resume', 'suspend', 'create']


def test_a_suspended_server_is_deleted_with_its_saved_memory(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    user.conn.compute.suspend_server(server)
    user.wait_server(server.id, 'SUSPENDED')
    resp = user.compute().delete('/servers/%s' % server.id)
    assert resp.status_code == 204, resp.text
    user.wait_gone(server.id)
    assert sh.domain_state(server.id) is None
    user.wait_volume(volume['id'], 'available')


def test_a_paused_server_is_deleted(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    user.conn.compute.pause_server(server)
    user.wait_server(server.id, 'PAUSED')
    resp = user.compute().delete('/servers/%s' % server.id)
    assert resp.status_code == 204, resp.text
    user.wait_gone(server.id)
    assert sh.domain_state(server.id) is None
    user.wait_volume(volume['id'], 'available')


def test_two_pauses_at_once_one_wins(cloud):
    user = cloud.project()
    server = user.boot()
    barrier = threading.Barrier(2)
    results = []

    def pause():
        http = user.compute()
        barrier.wait()
        results.append(http.post('/servers/%s/action' % server.id,
                                 json={'pause': None}))
    threads = [threading.Thread(target=pause) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 409], [r.text for r in results]
    loser = [r for r in results if r.status_code == 409][0]
    assert ('task_state pausing' in sh.message(loser) or
            'vm_state paused' in sh.message(loser)), loser.text
    user.wait_server(server.id, 'PAUSED')
    assert _actions(user, server.id) == ['pause', 'create']


def test_a_locked_server_refuses_them_to_its_owner(cloud):
    user = cloud.project()
    server = user.boot()
    assert user.action(server.id, {'lock': None}).status_code == 202
    for body in ({'pause': None}, {'suspend': None}):
        _conflict(user.action(server.id, body),
                  'Instance %s is locked.' % server.id)
    admin = cloud.admin()
    assert admin.action(server.id, {'pause': None}).status_code == 202
    user.wait_server(server.id, 'PAUSED')
    _conflict(user.action(server.id, {'unpause': None}), 'is locked')
    assert admin.action(server.id, {'unpause': None}).status_code == 202
    user.wait_server(server.id, 'ACTIVE')
    assert _actions(user, server.id) == ['unpause', 'pause', 'lock',
                                         'create']


def test_without_a_host_or_on_an_old_host_or_pin(cloud, levels,
                                                 monkeypatch):
    user = cloud.project()
    lost = user.boot(wait=False, availability_zone='nowhere')
    user.wait_server(lost.id, 'ERROR')
    for action in ('pause', 'unpause', 'suspend', 'resume'):
        _conflict(user.action(lost.id, {action: None}), 'is not ready')

    server = user.boot()
    with sh.host_at_version(server.id, 7):
        resp = user.action(server.id, {'pause': None})
    _conflict(resp, 'service version 7', 'needs 8')

    levels('compute', '1.5')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    resp = user.action(server.id, {'suspend': None})
    _conflict(resp, 'needs tether-compute RPC version 1.6', 'holds the '
              'API at 1.5')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    assert _states(user, server.id) == ('ACTIVE', 'active', 1)
    assert user.server(server.id)['OS-EXT-STS:task_state'] is None
    assert _actions(user, server.id) == ['create']


def test_suspend_refuses_a_server_with_shares(cloud):
    # A share is attached to a stopped server; the mapping row as the
    # attach leaves it once its host has access (no Manila here).
    from tether.db.compute import share_mapping as db_shares
    user = cloud.project()
    server = user.boot()
    ctx = helpers.admin_context()
    share_id = '5a1c3e7f-0b2d-4c6e-8f9a-1b3d5e7f9a2c'
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    db_shares.create(ctx, server.id, share_id, 'tag1', '/exports/x',
                     'NFS', ('stopped',))
    db_instances.update(ctx, server.id, {'vm_state': 'active'})
    try:
        _conflict(user.action(server.id, {'suspend': None}),
                  'feature not supported with instances that have '
                  'shares')
    finally:
        db_instances.update(ctx, server.id, {'vm_state': 'stopped'})
        db_shares.destroy(ctx, server.id, share_id, ('attaching',))
    assert user.server(server.id)['OS-EXT-STS:task_state'] is None


def test_a_reader_may_not(cloud):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    reader = sh.Project(cloud, 'reader-' + user.user, user.project,
                        ['reader'])
    for action, rule in (('pause', 'os-pause-server:pause'),
                         ('unpause', 'os-pause-server:unpause'),
                         ('suspend', 'os-suspend-server:suspend'),
                         ('resume', 'os-suspend-server:resume')):
        resp = reader.action(server.id, {action: None})
        assert resp.status_code == 403, resp.text
        assert rule in sh.message(resp), resp.text


@pytest.mark.parametrize('body,word', [
    ({'pause': {'x': 1}}, 'x'),
    ({'unpause': 'now'}, 'unpause'),
    ({'suspend': []}, 'suspend'),
    ({'resume': 5}, 'resume'),
    ({'pause': None, 'resume': None}, 'one key'),
])
def test_bad_bodies_are_400(cloud, body, word):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    resp = user.action(server.id, body)
    assert resp.status_code == 400, (body, resp.text)
    assert word in sh.message(resp), resp.text


# With an extend of an attached volume --------------------------------------

def _extend(user, volume_id, new_size):
    return user.volumes('3.71').post(
        '/volumes/%s/action' % volume_id,
        json={'os-extend': {'new_size': new_size}})


def _attached(user, server):
    volume = user.volume(size=1)
    attachment = user.conn.compute.create_volume_attachment(
        server, volume_id=volume['id'])
    return volume, attachment.device.rsplit('/', 1)[1]


def _no_extend_keys(volume_id):
    keys = set(helpers.db_volume(volume_id).admin_metadata)
    assert not keys & {'extend_new_size', 'extend_reservations'}, keys


def test_a_paused_guest_is_extended_by_its_hypervisor(cloud):
    # A paused QEMU still holds the file: the volume service asks the
    # compute host, which grows the paused guest's disk (block_resize
    # works on a paused domain, as in Nova).
    user = cloud.project()
    server = user.boot()
    data, target = _attached(user, server)
    user.conn.compute.pause_server(server)
    user.wait_server(server.id, 'PAUSED')
    assert _extend(user, data['id'], 2).status_code == 202
    assert user.wait_volume(data['id'], 'in-use')['size'] == 2
    _no_extend_keys(data['id'])
    assert sh.disk_capacity(server.id, target) == 2 * sh.GiB
    assert _states(user, server.id) == ('PAUSED', 'paused', 3)
    user.conn.compute.unpause_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert sh.disk_capacity(server.id, target) == 2 * sh.GiB


@pytest.mark.parametrize('action,status', [('pause', 'PAUSED'),
                                           ('suspend', 'SUSPENDED')])
def test_an_extend_in_flight_finishes_or_is_settled(cloud, action, status):
    # The extend and the action, sent together: on the host one waits for
    # the other (one operation per server at a time). Either the extend
    # runs first and finishes (2 GiB, in-use), or the action does: a
    # paused guest is grown all the same; a suspended one cannot be (no
    # QEMU), so the host answers the volume service with an error and
    # the extend is settled as Cinder settles a failed one: 1 GiB, its
    # reservation rolled back, error_extending. Either way nothing is
    # left half done, and the guest sees the volume's size.
    user = cloud.project()
    server = user.boot()
    data, target = _attached(user, server)
    assert _extend(user, data['id'], 2).status_code == 202
    assert user.action(server.id, {action: None}).status_code == 202
    user.wait_server(server.id, status)

    def settled():
        volume = user.show_volume(data['id'])
        return volume if volume['status'] in ('in-use', 'error_extending') \
            else None
    volume = user.wait(settled, timeout=sh.TIMEOUT, interval=0.05,
                       what='the extend of %s settled' % data['id'])
    _no_extend_keys(data['id'])
    size = volume['size']
    assert (volume['status'], size) in (('in-use', 2),
                                        ('error_extending', 1))
    if action == 'pause':
        assert size == 2
    assert sh.file_size(user.aio.volume_path(data['id'])) == size * sh.GiB
    user.action(server.id, {'unpause' if action == 'pause' else 'resume':
                            None})
    user.wait_server(server.id, 'ACTIVE')
    assert sh.disk_capacity(server.id, target) == size * sh.GiB


@pytest.mark.parametrize('action,status', [('pause', 'PAUSED'),
                                           ('suspend', 'SUSPENDED')])
def test_a_hard_reboot_boots_a_paused_or_suspended_guest(
        cloud, action, status):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    domid = sh.virsh('domid', sh.domain(server.id)).stdout.strip()
    assert user.action(server.id, {action: None}).status_code == 202
    user.wait_server(server.id, status)
    _conflict(user.action(server.id, {'reboot': {'type': 'SOFT'}}),
              'reboot', 'vm_state %s' % status.lower())
    resp = user.action(server.id, {'reboot': {'type': 'HARD'}})
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id, 'ACTIVE')
    assert _states(user, server.id) == ('ACTIVE', 'active', 1)
    assert sh.domain_state(server.id) == 'running'
    assert _saved(server.id) == 'no'
    assert sh.virsh('domid', sh.domain(server.id)).stdout.strip() != domid
    assert sh.locked(user.aio.volume_path(volume['id']))


def test_volumes_of_a_paused_server_attach_and_detach(cloud):
    # As in Nova: a paused server takes and gives up volumes (a
    # suspended one does not: 409).
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    user.conn.compute.pause_server(server)
    user.wait_server(server.id, 'PAUSED')
    attachment = user.conn.compute.create_volume_attachment(
        server, volume_id=data['id'])
    target = attachment.device.rsplit('/', 1)[1]
    assert user.wait_volume(data['id'], 'in-use')
    assert sh.disk_capacity(server.id, target) == sh.GiB
    assert sh.locked(user.aio.volume_path(data['id']))
    user.conn.compute.delete_volume_attachment(data['id'], server)
    user.wait_volume(data['id'], 'available')
    assert not sh.locked(user.aio.volume_path(data['id']))
    assert _states(user, server.id) == ('PAUSED', 'paused', 3)

    user.conn.compute.unpause_server(server)
    user.wait_server(server.id, 'ACTIVE')
    user.conn.compute.suspend_server(server)
    user.wait_server(server.id, 'SUSPENDED')
    resp = user.compute().post(
        '/servers/%s/os-volume_attachments' % server.id,
        json={'volumeAttachment': {'volumeId': data['id']}})
    _conflict(resp, 'vm_state suspended')
    assert user.show_volume(data['id'])['status'] == 'available'


@pytest.mark.parametrize('action', ['pause', 'suspend'])
def test_a_hypervisor_failure_puts_the_task_back(cloud, action):
    # The guest died behind tether's back: libvirt refuses to pause or
    # save it; the task is cleared, the state left to the next look,
    # and the action's event says Error.
    user = cloud.project()
    server = user.boot()
    sh.virsh('destroy', sh.domain(server.id))
    resp = user.action(server.id, {action: None})
    assert resp.status_code == 202, resp.text
    request_id = resp.headers['x-openstack-request-id']
    action_record = user.wait_events(
        server.id, request_id, [('compute_%s_instance' % action, 'Error')])
    assert action_record['message'] == 'Error'
    shown = user.server(server.id)
    assert (shown['status'], shown['OS-EXT-STS:task_state']) == (
        'ACTIVE', None)
