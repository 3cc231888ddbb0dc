"""The refusals of rescue and unrescue over HTTP (Nova's 400s, 403s,
404s and 409s: the wrong state, a lock, two rescues at once, a host or a
pin too old, shares, policy, bodies) and a rescue that fails on the host
(test_rescue.py has the flows)."""

import threading
import uuid

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional.compute.test_rescue import (
    _actions, _bad, _conflict, _image, _rescue_files, _states)
from tests.functional.compute.test_servers_from_images import domain_disks
from tests.functional import helpers
from tests.functional import image_helpers
from tether.compute import rpcapi as compute_rpcapi


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


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


def _at_once(user, server_id, body):
    """Two requests of ``body`` sent together; their responses."""
    barrier = threading.Barrier(2)
    results = []

    def send():
        http = user.compute()
        barrier.wait()
        results.append(http.post('/servers/%s/action' % server_id,
                                 json=body))
    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_two_rescues_or_unrescues_at_once_one_wins(cloud):
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'race'))
    results = _at_once(user, server.id, {'rescue': None})
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409], [r.text for r in results]
    loser = [r for r in results if r.status_code == 409][0]
    assert ('task_state rescuing' in sh.message(loser) or
            'vm_state rescued' in sh.message(loser)), loser.text
    user.wait_server(server.id, 'RESCUE')
    assert _actions(user, server.id) == ['rescue', 'create']

    results = _at_once(user, server.id, {'unrescue': None})
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 409], [r.text for r in results]
    loser = [r for r in results if r.status_code == 409][0]
    assert ('task_state unrescuing' in sh.message(loser) or
            'vm_state active' in sh.message(loser)), loser.text
    user.wait_server(server.id, 'ACTIVE')
    assert _actions(user, server.id) == ['unrescue', 'rescue', 'create']


def test_on_an_old_host_or_pin(cloud, levels, monkeypatch):
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'old host'))
    with sh.host_at_version(server.id, 8):
        resp = user.action(server.id, {'rescue': None})
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


def test_a_volume_backed_server_on_a_host_without_the_trait(cloud,
                                                            monkeypatch):
    # From 2.87 the host must report COMPUTE_RESCUE_BFV (Nova's 400).
    from tether.compute import scheduler
    user = cloud.project()
    server = user.boot()
    stable = _image(user, b'no trait', hw_rescue_bus='scsi',
                    hw_rescue_device='disk')
    real = scheduler.host_traits

    def without(context, host):
        return real(context, host) - {'COMPUTE_RESCUE_BFV'}
    # Fault injection: the host as one whose driver cannot do it.
    monkeypatch.setattr(scheduler, 'host_traits', without)
    _bad(user.action(server.id, {'rescue': {
        'rescue_image_ref': stable.id}}, version='2.87'),
        'Host unable to rescue a volume-backed instance')
    assert _states(user, server.id) == ('ACTIVE', 'active', None, 1)


def test_a_server_whose_volume_is_not_in_use(cloud):
    # Nova's check: every volume of the server is in-use. An admin reset
    # one's status behind the server's back: the rescue is a 400 that
    # names it, and nothing changes.
    user = cloud.project()
    server = sh.boot_image(user, _image(user, b'volumes'))
    volume = user.volume()
    user.conn.compute.create_volume_attachment(server, volume_id=volume['id'])
    user.wait_volume(volume['id'], 'in-use')
    admin = cloud.admin().volumes()
    resp = admin.post('/volumes/%s/action' % volume['id'],
                      json={'os-reset_status': {'status': 'available'}})
    assert resp.status_code == 202, resp.text
    _bad(user.action(server.id, {'rescue': None}),
         'volume %s of server %s is available, not in-use'
         % (volume['id'], server.id))
    assert _states(user, server.id) == ('ACTIVE', 'active', None, 1)
    admin.post('/volumes/%s/action' % volume['id'],
               json={'os-reset_status': {'status': 'in-use'}})
