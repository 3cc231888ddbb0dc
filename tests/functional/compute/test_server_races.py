"""Requests raced against each other through the whole stack.

Threads released together by a barrier (tests.functional.helpers.race)
send real HTTP requests; the outcome must be one of the clear ones, and
nothing may be left half done: no attachment without a server, no
volume ``reserved``, no guest without a server.
"""

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_five_servers_boot_at_once(cloud):
    user = cloud.project()
    volumes = [user.volume() for _ in range(5)]

    def booter(volume):
        return lambda: user.boot(volume, wait=False).id

    ids = helpers.race([booter(v) for v in volumes])
    assert all(isinstance(i, str) for i in ids), ids
    assert len(set(ids)) == 5
    servers = {i: user.wait_server(i) for i in ids}
    assert {s.power_state for s in servers.values()} == {1}
    # Five guests of their own, each holding its own volume.
    assert {sh.domain_state(i) for i in ids} == {'running'}
    holders = {}
    for volume in volumes:
        shown = user.show_volume(volume['id'])
        assert shown['status'] == 'in-use'
        [attachment] = shown['attachments']
        holders[volume['id']] = attachment['server_id']
        assert sh.locked(user.aio.volume_path(volume['id']))
    assert sorted(holders.values()) == sorted(ids)
    for volume_id, server_id in holders.items():
        assert [v['id'] for v in servers[server_id].attached_volumes] == [
            volume_id]


def test_one_volume_attached_to_two_servers_at_once(cloud):
    user = cloud.project()
    first, second = user.boot(), user.boot()
    data = user.volume()
    http = user.compute(sh.LATEST)

    def attacher(server):
        def attach():
            return http.post(
                '/servers/%s/os-volume_attachments' % server.id,
                json={'volumeAttachment': {'volumeId': data['id']}})
        return attach

    results = helpers.race([attacher(first), attacher(second)])
    codes = sorted(r.status_code for r in results)
    assert codes[0] == 200 and codes[1] in (400, 409), [
        r.text for r in results]
    winner = (first, second)[[r.status_code for r in results].index(200)]
    loser = second if winner is first else first
    assert [r['instance'] for r in user.attachments(data['id'])] == [
        winner.id]
    shown = user.show_volume(data['id'])
    assert shown['status'] == 'in-use'
    assert sh.locked(user.aio.volume_path(data['id']))
    for server, count in ((winner, 2), (loser, 1)):
        listed = http.get('/servers/%s/os-volume_attachments'
                          % server.id).json()['volumeAttachments']
        assert len(listed) == count, listed
    # The loser can have it once the winner lets go.
    user.conn.compute.delete_volume_attachment(winner, data['id'])
    user.wait_volume(data['id'], 'available')
    resp = attacher(loser)()
    assert resp.status_code == 200, resp.text


def test_two_volumes_attached_to_one_server_at_once(cloud):
    user = cloud.project()
    server = user.boot()
    volumes = [user.volume(), user.volume()]

    def attacher(volume):
        return lambda: user.conn.compute.create_volume_attachment(
            server, volume_id=volume['id']).device

    devices = helpers.race([attacher(v) for v in volumes])
    assert sorted(devices) == ['/dev/sdb', '/dev/sdc'], devices
    for volume in volumes:
        assert [r['instance'] for r in user.attachments(volume['id'])] == [
            server.id]
        assert sh.locked(user.aio.volume_path(volume['id']))
    # The same volume twice at once to the same server: attached once.
    third = user.volume()
    http = user.compute(sh.LATEST)
    results = helpers.race([lambda: http.post(
        '/servers/%s/os-volume_attachments' % server.id,
        json={'volumeAttachment': {'volumeId': third['id']}})] * 2)
    codes = sorted(r.status_code for r in results)
    assert codes[0] == 200 and codes[1] in (400, 409), [
        r.text for r in results]
    assert [r['instance'] for r in user.attachments(third['id'])] == [
        server.id]
    listed = http.get('/servers/%s/os-volume_attachments'
                      % server.id).json()['volumeAttachments']
    assert sorted(a['device'] for a in listed) == [
        '/dev/sda', '/dev/sdb', '/dev/sdc', '/dev/sdd']


def _settled(user, server_id, volume_id):
    """The server is gone and everything it held is free."""
    user.wait_gone(server_id)
    assert sh.domain_state(server_id) is None
    user.wait_volume(volume_id, 'available')
    user.assert_free(volume_id)


def test_delete_and_stop_at_once(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    http = user.compute(sh.LATEST)
    path = '/servers/%s' % server.id

    results = helpers.race([
        lambda: http.delete(path),
        lambda: http.post(path + '/action', json={'os-stop': None})])
    delete, stop = results
    assert delete.status_code == 204, delete.text
    # The stop came first (202), or found the delete going on (409), or
    # the server gone (404).
    assert stop.status_code in (202, 409, 404), stop.text
    if stop.status_code == 409:
        assert 'deleting' in sh.message(stop)
    _settled(user, server.id, volume['id'])


def test_delete_overtakes_the_build(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume, wait=False)
    user.conn.compute.delete_server(server)
    _settled(user, server.id, volume['id'])


def test_delete_overtaking_the_build_deletes_the_volume_it_is_told_to(
        cloud):
    user = cloud.project()
    kept, doomed = user.volume(), user.volume()
    server = user.boot(wait=False, block_device_mapping=[
        sh.root_bdm(kept['id']),
        dict(sh.root_bdm(doomed['id'], delete_on_termination=True),
             boot_index=1)])
    user.conn.compute.delete_server(server)
    _settled(user, server.id, kept['id'])
    user.wait_volume_gone(doomed['id'])


def test_two_deletes_at_once(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)
    http = user.compute(sh.LATEST)
    path = '/servers/%s' % server.id
    results = helpers.race([lambda: http.delete(path)] * 2)
    codes = sorted(r.status_code for r in results)
    # One delete wins; the other finds it going on (204, as a repeated
    # delete gets, whether it read the server before or after the claim)
    # or, if it came last, the server gone.
    assert codes[0] == 204 and codes[1] in (204, 404), [
        r.text for r in results]
    _settled(user, server.id, volume['id'])
