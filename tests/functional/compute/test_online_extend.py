"""The online extend of attached volumes on the NFS driver, end to end.

Real libvirt guests hold their volume files with QEMU's write lock, so
the volume service's ``qemu-img resize`` fails: tether-volume records the
extend in admin metadata and posts ``volume-extended``; tether-compute
grows the disk with ``block_resize`` and answers with
``os-extend_volume_completion``. Every other way through the volume
manager is here too, and the timeout that settles an extend nobody
answers.
"""

import contextlib
import logging
import os
import uuid

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests import qemu_guest
from tether.db.compute import service as db_services

CONF = cfg.CONF
GiB = sh.GiB
VERSION = '3.71'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _extend(project, volume_id, new_size, version=VERSION):
    return project.volumes(version).post(
        '/volumes/%s/action' % volume_id,
        json={'os-extend': {'new_size': new_size}})


def _complete(project, volume_id, body, version=VERSION, roles=None):
    http = project.aio.http(project.user, project.project,
                            roles or project.roles, version)
    return http.post('/volumes/%s/action' % volume_id,
                     json={'os-extend_volume_completion': body})


def _settled(user, volume_id, status):
    def check():
        volume = user.show_volume(volume_id)
        return volume if volume['status'] == status else None
    return user.wait(check, timeout=sh.TIMEOUT, interval=0.05,
                     what='volume %s %s' % (volume_id, status))


def _gigabytes(user):
    return helpers.usage(user.project)['gigabytes']


def _attached(user, server):
    volume = user.volume(size=1)
    attachment = user.conn.compute.create_volume_attachment(
        server, volume_id=volume['id'])
    return volume, attachment.device.rsplit('/', 1)[1]


def _no_extend_keys(volume_id):
    row = helpers.db_volume(volume_id)
    keys = set(row.admin_metadata)
    assert not keys & {'extend_new_size', 'extend_reservations'}, keys


# The hypervisor grows it -----------------------------------------------------

def test_online_extend_of_a_file_a_guest_holds(cloud, caplog):
    caplog.set_level(logging.INFO, logger='tether')
    user = cloud.project()
    server = user.boot()
    data, target = _attached(user, server)
    path = user.aio.volume_path(data['id'])
    assert sh.locked(path)
    used = _gigabytes(user)

    resp = _extend(user, data['id'], 3)
    assert resp.status_code == 202, resp.text
    volume = _settled(user, data['id'], 'in-use')
    assert volume['size'] == 3
    # The file and the guest's disk grew, and QEMU still holds the file.
    assert sh.file_size(path) == 3 * GiB
    assert sh.disk_capacity(server.id, target) == 3 * GiB
    assert sh.locked(path)
    assert 'extend_new_size' not in volume['metadata']
    _no_extend_keys(data['id'])
    assert _gigabytes(user) == (used[0] + 2, 0)
    # The volume service sent the size with the event (its service
    # token): the host did not read the volume for it.
    assert ('Volume %s waits for this host to grow it to 3G (the size '
            'sent with the event)' % data['id']) in caplog.text
    # The server's action records it, as Tempest waits for it.
    actions = user.compute('2.51').get(
        '/servers/%s/os-instance-actions' % server.id).json()
    [extend] = [a for a in actions['instanceActions']
                if a['action'] == 'extend_volume']
    user.wait_events(server.id, extend['request_id'],
                     [('compute_extend_volume', 'Success')])
    # The compute API shows the volume at its new size too: a second
    # extend of the root disk works the same way.
    root = server.attached_volumes[0]['id']
    assert _extend(user, root, 2).status_code == 202
    assert _settled(user, root, 'in-use')['size'] == 2
    assert sh.disk_capacity(server.id, 'sda') == 2 * GiB


def test_a_stopped_guest_volume_grows_in_place(cloud):
    user = cloud.project()
    server = user.boot()
    data, target = _attached(user, server)
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    path = user.aio.volume_path(data['id'])
    assert not sh.locked(path)

    assert _extend(user, data['id'], 2).status_code == 202
    assert _settled(user, data['id'], 'in-use')['size'] == 2
    assert sh.file_size(path) == 2 * GiB
    user.conn.compute.start_server(server)
    user.wait_server(server.id)
    assert sh.disk_capacity(server.id, target) == 2 * GiB


# Every way through the volume manager ---------------------------------------

def test_an_unattached_volume_the_driver_grows(cloud):
    user = cloud.project()
    volume = user.volume(size=1)
    used = _gigabytes(user)
    assert _extend(user, volume['id'], 2).status_code == 202
    assert _settled(user, volume['id'], 'available')['size'] == 2
    assert _gigabytes(user) == (used[0] + 1, 0)


@pytest.fixture
def notifications():
    """oslo.messaging's test driver: the notifications this process
    sends (tether-aio runs in the test's process)."""
    from oslo_messaging.notify import _impl_test
    from tether import rpc
    rpc.get_notifier('volume.test')   # registers the option group
    CONF.set_override('driver', ['test'],
                      group='oslo_messaging_notifications')
    rpc.NOTIFIER = None
    _impl_test.reset()
    try:
        # Read at the end: reset() rebinds the list.
        yield lambda: [message for _ctxt, message, _prio, _retry
                       in _impl_test.NOTIFICATIONS]
    finally:
        CONF.clear_override('driver', group='oslo_messaging_notifications')
        rpc.NOTIFIER = None


def test_a_grown_volume_is_notified(cloud, notifications):
    user = cloud.project()
    volume = user.volume(size=1)
    assert _extend(user, volume['id'], 2).status_code == 202
    _settled(user, volume['id'], 'available')
    sent = [m for m in notifications()
            if m['event_type'] == 'volume.resize.end' and
            m['payload']['volume_id'] == volume['id']]
    assert len(sent) == 1, notifications()
    payload = sent[0]['payload']
    assert (payload['size'], payload['status'], payload['tenant_id']) == (
        2, 'available', user.project)
    assert sent[0]['publisher_id'].startswith('volume.')


def test_a_driver_failure_is_error_extending(cloud):
    user = cloud.project()
    volume = user.volume(size=1)
    used = _gigabytes(user)
    os.unlink(user.aio.volume_path(volume['id']))
    assert _extend(user, volume['id'], 2).status_code == 202
    assert _settled(user, volume['id'], 'error_extending')['size'] == 1
    assert _gigabytes(user) == used


def _attachment(user, volume_id, instance_uuid):
    """An attached attachment of the attachments API (no real guest)."""
    http = user.volumes('3.44')
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume_id, 'instance_uuid': instance_uuid,
        'connector': {'host': 'elsewhere', 'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 200, resp.text
    attachment_id = resp.json()['attachment']['id']
    resp = http.post('/attachments/%s/action' % attachment_id,
                     json={'os-complete': None})
    assert resp.status_code == 204, resp.text
    return attachment_id


def _extend_held_fails(project, volume_id):
    """Extend the volume while another process's QEMU holds its file (no
    tether server): it ends error_extending, quota and keys as before."""
    used = _gigabytes(project)
    with qemu_guest.holding(project.aio.volume_path(volume_id)):
        assert _extend(project, volume_id, 2).status_code == 202
        assert _settled(project, volume_id, 'error_extending')['size'] == 1
    assert _gigabytes(project) == used
    _no_extend_keys(volume_id)


def test_a_held_volume_that_is_not_attached_is_error_extending(cloud):
    user = cloud.project()
    _extend_held_fails(user, user.volume(size=1)['id'])


def test_a_held_volume_of_two_servers_is_error_extending(cloud):
    admin = cloud.admin()
    resp = admin.volumes('3.0').post('/types', json={'volume_type': {
        'name': 'multi-' + uuid.uuid4().hex[:6],
        'extra_specs': {'multiattach': '<is> True'}}})
    assert resp.status_code == 200, resp.text
    type_name = resp.json()['volume_type']['name']
    volume = helpers.create_volume(admin.volumes(), size=1,
                                   wait_for=admin.wait,
                                   volume_type=type_name)
    admin.cloud.volumes.append((admin, volume['id']))
    for _ in range(2):
        _attachment(admin, volume['id'], str(uuid.uuid4()))
    _extend_held_fails(admin, volume['id'])


def test_an_event_compute_refuses_is_error_extending(cloud):
    # The attachment names a server the compute API does not know: the
    # event's code is 404, so nobody would ever answer.
    user = cloud.project()
    volume = user.volume(size=1)
    _attachment(user, volume['id'], str(uuid.uuid4()))
    _extend_held_fails(user, volume['id'])


def test_a_compute_host_too_old_is_answered_by_the_api(cloud):
    user = cloud.project()
    server = user.boot()
    data, target = _attached(user, server)
    ctx = helpers.admin_context()
    [row] = [r for r in db_services.get_all(ctx, binary='tether-compute')
             if r.host == CONF.host]
    db_services.update(ctx, row.id, {'version': 1})
    try:
        assert _extend(user, data['id'], 2).status_code == 202
        assert _settled(user, data['id'],
                        'error_extending')['size'] == 1
    finally:
        db_services.update(ctx, row.id, {'version': row.version})
    assert sh.disk_capacity(server.id, target) == 1 * GiB


# The completion action -------------------------------------------------------

def test_completion_codes(cloud):
    user = cloud.project()
    admin = cloud.admin()
    volume = user.volume(size=1)
    vid = volume['id']
    # Not extending: 400 naming the status.
    resp = _complete(admin, vid, {'error': False})
    assert resp.status_code == 400, resp.text
    assert 'available' in sh.message(resp)

    helpers.extend_waiting(vid, 3)
    used = _gigabytes(user)
    assert used[1] == 2
    # Readers see the target size; users cannot set it.
    assert user.show_volume(vid)['metadata']['extend_new_size'] == '3'
    meta = user.volumes('3.0')
    for resp in (meta.post('/volumes/%s/metadata' % vid,
                           json={'metadata': {'extend_new_size': '99'}}),
                 meta.put('/volumes/%s/metadata/extend_new_size' % vid,
                          json={'meta': {'extend_new_size': '99'}}),
                 meta.put('/volumes/%s' % vid, json={'volume': {
                     'metadata': {'extend_new_size': '99'}}}),
                 meta.delete('/volumes/%s/metadata/extend_new_size' % vid)):
        assert resp.status_code == 400, resp.text
        assert 'extend_new_size' in sh.message(resp)
    assert meta.get('/volumes/%s/metadata/extend_new_size' % vid).json() \
        == {'meta': {'extend_new_size': '3'}}

    # Members may not; bad bodies are 400; old versions and unknown
    # volumes 404.
    resp = _complete(user, vid, {'error': False})
    assert resp.status_code == 403, resp.text
    for body in ({'error': 'false'}, {'error': None}, {},
                 {'error': False, 'x': 1}):
        resp = _complete(admin, vid, body)
        assert resp.status_code == 400, (body, resp.text)
    resp = _complete(admin, vid, {'error': False}, version='3.70')
    assert resp.status_code == 404, resp.text
    assert resp.json()['itemNotFound']['error_code'] == \
        'api.action.not_served'
    resp = _complete(admin, str(uuid.uuid4()), {'error': False})
    assert resp.status_code == 404, resp.text
    assert user.show_volume(vid)['status'] == 'extending'

    # A service succeeds: the quota is committed, the size set.
    service = cloud.project(roles=['service'])
    resp = _complete(service, vid, {'error': False})
    assert resp.status_code == 202, resp.text
    shown = user.show_volume(vid)
    assert (shown['status'], shown['size']) == ('available', 3)
    assert 'extend_new_size' not in shown['metadata']
    assert _gigabytes(user) == (used[0] + 2, 0)
    # Twice: there is nothing to complete any more.
    assert _complete(service, vid, {'error': False}).status_code == 400

    # An error rolls back.
    helpers.extend_waiting(vid, 4)
    assert _complete(admin, vid, {'error': True}).status_code == 202
    shown = user.show_volume(vid)
    assert (shown['status'], shown['size']) == ('error_extending', 3)
    assert _gigabytes(user) == (used[0] + 2, 0)


def test_completion_refused_changes_nothing(cloud):
    """The completion reads the volume and checks its policy in the
    transaction that settles it: a refused caller leaves the extend
    waiting, its quota reserved and its keys in place."""
    user = cloud.project()
    other = cloud.project()
    vid = user.volume(size=1)['id']
    helpers.extend_waiting(vid, 2)
    used = _gigabytes(user)
    # Another project's member does not see the volume (404), its own
    # project's member may not complete it (403).
    resp = _complete(other, vid, {'error': False})
    assert resp.status_code == 404, resp.text
    for body in ({'error': False}, {'error': True}):
        resp = _complete(user, vid, body)
        assert resp.status_code == 403, resp.text
    shown = user.show_volume(vid)
    assert (shown['status'], shown['size']) == ('extending', 1)
    assert shown['metadata']['extend_new_size'] == '2'
    assert _gigabytes(user) == used
    # The answer that counts still settles it.
    service = cloud.project(roles=['service'])
    assert _complete(service, vid, {'error': False}).status_code == 202
    shown = user.show_volume(vid)
    assert (shown['status'], shown['size']) == ('available', 2)


def test_reset_status_from_extending_rolls_the_extend_back(cloud):
    user = cloud.project()
    admin = cloud.admin()
    volume = user.volume(size=1)
    used = _gigabytes(user)
    helpers.extend_waiting(volume['id'], 2)
    resp = admin.volumes('3.0').post(
        '/volumes/%s/action' % volume['id'],
        json={'os-reset_status': {'status': 'available'}})
    assert resp.status_code == 202, resp.text
    assert _gigabytes(user) == used
    _no_extend_keys(volume['id'])
    assert user.show_volume(volume['id'])['size'] == 1
    assert _complete(admin, volume['id'],
                     {'error': False}).status_code == 400
    # Its refused statuses are exactly these three.
    for status in ('deleting', 'error_deleting', 'detaching'):
        resp = admin.volumes('3.0').post(
            '/volumes/%s/action' % volume['id'],
            json={'os-reset_status': {'status': status}})
        assert resp.status_code == 400, (status, resp.text)


def test_concurrent_extends_one_wins(cloud):
    user = cloud.project()
    server = user.boot()
    data, _target = _attached(user, server)
    used = _gigabytes(user)
    results = helpers.race([lambda: _extend(user, data['id'], 2),
                            lambda: _extend(user, data['id'], 3)])
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 400], [r.text for r in results]
    size = _settled(user, data['id'], 'in-use')['size']
    assert size in (2, 3)
    assert _gigabytes(user) == (used[0] + size - 1, 0)


# Nothing waits forever -------------------------------------------------------

@contextlib.contextmanager
def _timeout(aio, seconds):
    """The volume service restarted with a short completion timeout."""
    CONF.set_override('extend_completion_timeout', seconds)
    aio.restart_volume_service()
    try:
        yield
    finally:
        CONF.clear_override('extend_completion_timeout')
        aio.restart_volume_service()


@contextlib.contextmanager
def _compute_stopped(aio):
    aio.impl.compute_service.stop()
    try:
        yield
    finally:
        aio.impl.compute_service.start()


def test_an_unanswered_extend_settles_from_the_file(cloud):
    user = cloud.project()
    server = user.boot()
    lost, _ = _attached(user, server)
    grown, target = _attached(user, server)
    used = _gigabytes(user)
    with _timeout(user.aio, 2), _compute_stopped(user.aio):
        # The events are accepted, and nobody acts on them.
        for volume in (lost, grown):
            assert _extend(user, volume['id'], 2).status_code == 202
            user.wait(lambda: 'extend_new_size' in user.show_volume(
                volume['id'])['metadata'], timeout=sh.TIMEOUT,
                interval=0.05, what='the extend waiting')
        # A restart of the volume service leaves them waiting.
        user.aio.restart_volume_service()
        for volume in (lost, grown):
            shown = user.show_volume(volume['id'])
            assert shown['status'] == 'extending', shown
            assert shown['metadata']['extend_new_size'] == '2'
        # The guest's QEMU grew one of them; no answer came for either.
        sh.virsh('blockresize', sh.domain(server.id), target, '2G')
        assert _settled(user, grown['id'], 'in-use')['size'] == 2
        assert _settled(user, lost['id'], 'error_extending')['size'] == 1
    assert _gigabytes(user) == (used[0] + 1, 0)
    for volume in (lost, grown):
        _no_extend_keys(volume['id'])
