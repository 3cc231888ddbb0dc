"""os-volume_attachments over HTTP: hot attach and detach of data volumes.

Attach is synchronous (the answer names the device), so what it made is
checked at once: the volume API's one attachment record, QEMU's lock on
the file, the disk in the guest. Every refused attach leaves the volume
as it found it: nothing ``reserved`` or ``attaching``.
"""

import os
import subprocess
import uuid

import pytest

from tests.functional.compute import server_helpers as sh


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _attach(http, server_id, volume_id, **extra):
    return http.post('/servers/%s/os-volume_attachments' % server_id,
                     json={'volumeAttachment': dict(volumeId=volume_id,
                                                    **extra)})


def _disks(server_id):
    """{target: source} of the running guest (virsh domblklist)."""
    out = sh.virsh('domblklist', sh.domain(server_id)).stdout
    disks = {}
    for line in out.splitlines()[2:]:
        parts = line.split()
        if len(parts) == 2:
            disks[parts[0]] = parts[1]
    return disks


def test_attach_then_detach(cloud):
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    path = user.aio.volume_path(data['id'])
    assert not sh.locked(path)

    attachment = user.conn.compute.create_volume_attachment(
        server, volume_id=data['id'])
    assert attachment.device == '/dev/sdb'
    assert attachment.volume_id == data['id']
    # Done when the call returns: in-use, one record, held by QEMU.
    shown = user.show_volume(data['id'])
    assert shown['status'] == 'in-use'
    [record] = user.attachments(data['id'])
    assert (record['instance'], record['status']) == (server.id,
                                                      'attached')
    assert [a['attachment_id'] for a in shown['attachments']] == [
        record['id']]
    assert sh.locked(path)
    assert _disks(server.id)['sdb'] == path
    http = user.compute(sh.LATEST)
    listed = http.get('/servers/%s/os-volume_attachments'
                      % server.id).json()['volumeAttachments']
    assert [(a['volumeId'], a['device']) for a in listed][1:] == [
        (data['id'], '/dev/sdb')]
    one = http.get('/servers/%s/os-volume_attachments/%s'
                   % (server.id, data['id'])).json()['volumeAttachment']
    assert set(one) == {'volumeId', 'serverId', 'device', 'tag',
                        'delete_on_termination', 'attachment_id',
                        'bdm_uuid'}
    assert (one['serverId'], one['attachment_id'], one['tag'],
            one['delete_on_termination']) == (server.id, record['id'],
                                              None, False)
    old = user.compute('2.1').get('/servers/%s/os-volume_attachments/%s'
                                  % (server.id, data['id']))
    assert old.json()['volumeAttachment'] == {
        'id': data['id'], 'volumeId': data['id'], 'serverId': server.id,
        'device': '/dev/sdb'}
    assert [v['id'] for v in user.server(server.id)[
        'os-extended-volumes:volumes_attached']][1:] == [data['id']]

    user.conn.compute.delete_volume_attachment(server, data['id'])
    user.wait_volume(data['id'], 'available')
    user.assert_free(data['id'])
    assert 'sdb' not in _disks(server.id)
    resp = http.get('/servers/%s/os-volume_attachments/%s'
                    % (server.id, data['id']))
    assert resp.status_code == 404
    assert len(http.get('/servers/%s/os-volume_attachments'
                        % server.id).json()['volumeAttachments']) == 1
    # Attached again, it gets the free name again.
    again = _attach(http, server.id, data['id'], tag='data',
                    delete_on_termination=True)
    assert again.status_code == 200, again.text
    body = again.json()['volumeAttachment']
    assert (body['device'], body['tag'], body['delete_on_termination']) \
        == ('/dev/sdb', 'data', True)
    # An attach answers "id" at every version, and not the IDs that a
    # list or show has from 2.89 (Nova's).
    assert set(body) == {'id', 'volumeId', 'serverId', 'device', 'tag',
                         'delete_on_termination'}
    assert body['id'] == data['id']
    # Deleting the server deletes a volume attached so.
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    volumes = user.volumes()
    user.wait(lambda: volumes.get('/volumes/%s' % data['id']).status_code
              == 404, timeout=sh.TIMEOUT, what='volume deleted')


def _held_by(user, volume_id):
    return sorted((r['instance'], r['status'])
                  for r in user.attachments(volume_id))


def test_attach_refusals_leave_nothing_reserved(cloud):
    user = cloud.project()
    server = user.boot()
    other = user.boot()
    data = user.volume()
    http = user.compute(sh.LATEST)
    assert _attach(http, server.id, data['id']).status_code == 200

    # The same volume again, to the same server: 400, as Nova answers.
    resp = _attach(http, server.id, data['id'])
    assert resp.status_code == 400, resp.text
    assert resp.json()['badRequest']['error_code'] == \
        'compute.volume_attachment.exists'
    assert data['id'] in sh.message(resp)
    # A volume in use by another server (here: its root): 400.
    other_root = user.conn.compute.get_server(other.id).attached_volumes[0][
        'id']
    resp = _attach(http, server.id, other_root)
    assert resp.status_code == 400, resp.text
    assert 'in-use' in sh.message(resp)
    # ... or by this one (attached already, to another server).
    resp = _attach(http, other.id, data['id'])
    assert resp.status_code == 400, resp.text
    assert 'in-use' in sh.message(resp)
    # Another project's volume, an unknown one: 404.
    them = cloud.project()
    theirs = them.volume()
    for volume_id in (theirs['id'], str(uuid.uuid4())):
        resp = _attach(http, server.id, volume_id)
        assert resp.status_code == 404, resp.text
        assert volume_id in sh.message(resp)
    # Bad bodies: 400 naming the field.
    for body, word in (({'volumeId': 'nope'}, 'volumeId'),
                       ({}, 'volumeId'),
                       ({'volumeId': data['id'], 'color': 1}, 'color')):
        resp = http.post('/servers/%s/os-volume_attachments' % server.id,
                         json={'volumeAttachment': body})
        assert resp.status_code == 400, (body, resp.text)
        assert word in sh.message(resp), (word, resp.text)
    resp = _attach(user.compute('2.48'), server.id, theirs['id'], tag='t')
    assert resp.status_code == 400
    assert 'tag' in sh.message(resp)

    # Nothing was left behind by the refusals.
    assert _held_by(user, data['id']) == [(server.id, 'attached')]
    assert _held_by(user, other_root) == [(other.id, 'attached')]
    them.assert_free(theirs['id'])
    for server_id, count in ((server.id, 2), (other.id, 1)):
        listed = http.get('/servers/%s/os-volume_attachments'
                          % server_id).json()['volumeAttachments']
        assert len(listed) == count, listed


def test_detach_refusals(cloud):
    user = cloud.project()
    server = user.boot()
    root = server.attached_volumes[0]['id']
    loose = user.volume()
    http = user.compute(sh.LATEST)
    path = '/servers/%s/os-volume_attachments/%s'

    resp = http.delete(path % (server.id, root))
    assert resp.status_code == 400, resp.text
    assert 'root' in sh.message(resp)
    resp = http.delete(path % (server.id, loose['id']))
    assert resp.status_code == 404, resp.text
    assert loose['id'] in sh.message(resp)
    resp = http.delete(path % (str(uuid.uuid4()), loose['id']))
    assert resp.status_code == 404, resp.text
    # Still attached, still held.
    assert _held_by(user, root) == [(server.id, 'attached')]
    assert sh.locked(user.aio.volume_path(root))
    user.assert_free(loose['id'])


def test_attach_and_detach_while_stopped(cloud):
    user = cloud.project()
    server = user.boot()
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    data = user.volume()
    path = user.aio.volume_path(data['id'])

    resp = _attach(user.compute(sh.LATEST), server.id, data['id'])
    assert resp.status_code == 200, resp.text
    assert resp.json()['volumeAttachment']['device'] == '/dev/sdb'
    assert _held_by(user, data['id']) == [(server.id, 'attached')]
    # No QEMU runs yet; starting the guest opens the new disk too.
    assert not sh.locked(path)
    user.conn.compute.start_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert sh.locked(path)
    assert _disks(server.id)['sdb'] == path

    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    user.conn.compute.delete_volume_attachment(server, data['id'])
    user.wait_volume(data['id'], 'available')
    user.assert_free(data['id'])
    user.conn.compute.start_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert 'sdb' not in _disks(server.id)


def test_attach_to_a_server_without_a_host_is_409(cloud):
    user = cloud.project()
    data = user.volume()
    lost = user.boot(wait=False, availability_zone='nowhere')
    user.wait_server(lost.id, 'ERROR')
    http = user.compute(sh.LATEST)
    resp = _attach(http, lost.id, data['id'])
    assert resp.status_code == 409, resp.text
    assert 'is not ready' in sh.message(resp)
    user.assert_free(data['id'])


def test_a_user_cannot_delete_the_attachment_a_server_uses(cloud):
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    user.conn.compute.create_volume_attachment(server, volume_id=data['id'])
    volumes = user.volumes('3.44')
    for volume_id in (server.attached_volumes[0]['id'], data['id']):
        [record] = user.attachments(volume_id)
        # The volume API asks the compute API, which says the guest has
        # it: deleting it under the guest is refused (as Cinder does).
        resp = volumes.delete('/attachments/%s' % record['id'])
        assert resp.status_code == 409, resp.text
        assert server.id in sh.message(resp)
        assert user.show_volume(volume_id)['status'] == 'in-use'
        assert sh.locked(user.aio.volume_path(volume_id))
    # Detached through the compute API, it is gone.
    user.conn.compute.delete_volume_attachment(server, data['id'])
    user.wait_volume(data['id'], 'available')
    user.assert_free(data['id'])


def test_a_failed_hot_attach_is_rolled_back(cloud, tmp_path):
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    path = user.aio.volume_path(data['id'])
    # Another process (qemu-nbd) holds the file: QEMU's device_add fails.
    socket = os.path.join(tmp_path, 'nbd.sock')
    holder = subprocess.Popen(['qemu-nbd', '-f', 'raw', '-k', socket, path],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        user.wait(lambda: os.path.exists(socket), timeout=10,
                  what='qemu-nbd holding %s' % path)
        resp = _attach(user.compute(sh.LATEST), server.id, data['id'])
    finally:
        holder.terminate()
        holder.wait(10)
    # The failure reaches the caller (attach is a call, not a cast)...
    assert resp.status_code >= 400, resp.text
    user.wait_events(server.id, resp.headers['X-OpenStack-Request-ID'],
                     [('compute_attach_volume', 'Error')])
    # ... and nothing of it is left: no attachment, no disk, no row.
    user.assert_free(data['id'])
    assert 'sdb' not in _disks(server.id)
    listed = user.compute(sh.LATEST).get(
        '/servers/%s/os-volume_attachments' % server.id).json()
    assert len(listed['volumeAttachments']) == 1
    assert user.server(server.id)['status'] == 'ACTIVE'
    # It attaches once the file is free.
    assert _attach(user.compute(sh.LATEST), server.id,
                   data['id']).status_code == 200


def test_the_volume_api_shows_the_device_of_a_server(cloud):
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    user.conn.compute.create_volume_attachment(server, volume_id=data['id'])
    for volume_id, device in ((server.attached_volumes[0]['id'], '/dev/sda'),
                              (data['id'], '/dev/sdb')):
        [attachment] = user.show_volume(volume_id)['attachments']
        assert attachment['device'] == device


def test_update_of_an_attachment(cloud):
    """PUT: from 2.85 an update of delete_on_termination; a swap (every
    PUT below 2.85) is for the volume service during a migration, which
    tether does not do: 409, as Nova answers for a volume not migrating."""
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    spare = user.volume()
    http = user.compute(sh.LATEST)
    assert _attach(http, server.id, data['id']).status_code == 200
    path = '/servers/%s/os-volume_attachments/%s'

    def put(client, volume_id, **body):
        body.setdefault('volumeId', volume_id)
        return client.put(path % (server.id, volume_id),
                          json={'volumeAttachment': body})

    resp = put(http, data['id'], delete_on_termination=True)
    assert resp.status_code == 202, resp.text
    shown = http.get(path % (server.id, data['id'])).json()[
        'volumeAttachment']
    assert shown['delete_on_termination'] is True
    # What a GET answered may be sent back as it is.
    shown['delete_on_termination'] = 'false'
    del shown['attachment_id'], shown['bdm_uuid']
    resp = put(http, data['id'], **shown)
    assert resp.status_code == 202, resp.text
    assert http.get(path % (server.id, data['id'])).json()[
        'volumeAttachment']['delete_on_termination'] is False
    # Anything else is not mutable: 400 naming it.
    for change in ({'tag': 'new'}, {'device': '/dev/sdc'},
                   {'serverId': str(uuid.uuid4())},
                   {'id': spare['id']}):
        resp = put(http, data['id'], **change)
        assert resp.status_code == 400, (change, resp.text)
        [name] = change
        assert 'The %s property' % name in sh.message(resp)
    # Bad bodies: 400 naming the field.
    for body, word in (({'volumeId': 'nope'}, 'volumeId'),
                       ({'volumeId': data['id'], 'color': 1}, 'color'),
                       ({'volumeId': data['id'],
                         'delete_on_termination': 'maybe'},
                        'delete_on_termination')):
        resp = http.put(path % (server.id, data['id']),
                        json={'volumeAttachment': body})
        assert resp.status_code == 400, (body, resp.text)
        assert word in sh.message(resp), (word, resp.text)
    # An attachment that does not exist: 404 (a volume of the project
    # not attached to the server, an unknown one).
    for volume_id in (spare['id'], str(uuid.uuid4())):
        resp = put(http, volume_id, delete_on_termination=True)
        assert resp.status_code == 404, resp.text
        assert volume_id in sh.message(resp)

    # A swap: the service role's (or an administrator's) ...
    resp = put(http, data['id'], volumeId=spare['id'])
    assert resp.status_code == 403, resp.text
    assert 'os_compute_api:os-volumes-attachments:swap' in sh.message(resp)
    resp = put(user.compute('2.84'), data['id'])
    assert resp.status_code == 403, resp.text
    # ... refused: tether's volume service migrates no volume.
    admin = cloud.admin()
    for version in ('2.1', '2.84', sh.LATEST):
        resp = put(admin.compute(version), data['id'], volumeId=spare['id'])
        assert resp.status_code == 409, (version, resp.text)
        assert 'is not migrating' in sh.message(resp)
    resp = put(admin.compute('2.84'), data['id'], delete_on_termination=True)
    assert resp.status_code == 400, resp.text
    assert 'delete_on_termination' in sh.message(resp)
    missing = str(uuid.uuid4())
    resp = put(admin.compute('2.1'), missing, volumeId=spare['id'])
    assert resp.status_code == 404, resp.text
    assert missing in sh.message(resp)
    # Nothing changed.
    assert _held_by(user, data['id']) == [(server.id, 'attached')]
    user.assert_free(spare['id'])
