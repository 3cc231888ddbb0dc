"""os-server-external-events over HTTP: volume-extended, codes, policy.

These tests post ``volume-extended`` themselves, as the volume service
does after it grew a volume that is not waiting for the hypervisor (the
online extend that waits is in test_online_extend.py). The volume record
is given its new size through the volume database layer, while the file
keeps its old size: growing it is the guest's QEMU's job
(``block_resize``), which is what the event asks of tether-compute.
"""

import logging
import uuid

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tether.db.volume import volume as db_volumes


GiB = sh.GiB
EVENTS_VERSION = '2.51'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _post(project, events, version=EVENTS_VERSION, roles=None):
    http = project.compute(version, roles=roles)
    # The path without the project, as the volume service posts it.
    return http.session.post(project.aio.compute_url +
                             '/os-server-external-events',
                             json={'events': events})


def _extended(server_id, volume_id):
    return {'name': 'volume-extended', 'server_uuid': server_id,
            'tag': volume_id}


def _grown_record(volume_id, size):
    """The volume record at its new size, its file as it was."""
    assert db_volumes.conditional_update(
        helpers.admin_context(), volume_id, {'size': size}, None)


def _attach(user, server, volume):
    attachment = user.conn.compute.create_volume_attachment(
        server, volume_id=volume['id'])
    return attachment.device.rsplit('/', 1)[1]


def test_volume_extended_grows_the_disk_of_a_running_guest(cloud):
    user = cloud.project()
    admin = cloud.admin()
    server = user.boot()
    data = user.volume(size=1)
    target = _attach(user, server, data)
    path = user.aio.volume_path(data['id'])
    assert sh.disk_capacity(server.id, target) == 1 * GiB
    _grown_record(data['id'], 2)

    resp = _post(admin, [_extended(server.id, data['id'])])
    assert resp.status_code == 200, resp.text
    [event] = resp.json()['events']
    assert (event['code'], event['status'], event['name'],
            event['server_uuid'], event['tag']) == (
        200, 'completed', 'volume-extended', server.id, data['id'])
    request_id = resp.headers['X-OpenStack-Request-ID']

    user.wait(lambda: sh.disk_capacity(server.id, target) == 2 * GiB,
              timeout=sh.TIMEOUT, interval=0.05, what='the disk grown')
    # QEMU grew the file it holds.
    assert sh.file_size(path) == 2 * GiB
    assert sh.locked(path)
    action = admin.wait_events(server.id, request_id, [
        ('compute_extend_volume', 'Success')])
    assert (action['action'], action['user_id']) == ('extend_volume',
                                                     'admin')
    # The root disk is left as it was.
    assert sh.disk_capacity(server.id, 'sda') == 1 * GiB


def test_volume_extended_on_a_stopped_guest_is_recorded_not_resized(cloud):
    user = cloud.project()
    admin = cloud.admin()
    server = user.boot()
    data = user.volume(size=1)
    _attach(user, server, data)
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    _grown_record(data['id'], 2)

    resp = _post(admin, [_extended(server.id, data['id'])])
    assert resp.status_code == 200, resp.text
    request_id = resp.headers['X-OpenStack-Request-ID']
    admin.wait_events(server.id, request_id, [
        ('compute_extend_volume', 'Success')])
    assert sh.file_size(user.aio.volume_path(data['id'])) == 1 * GiB
    assert user.wait_server(server.id, 'SHUTOFF').vm_state == 'stopped'


def test_per_event_codes(cloud):
    user = cloud.project()
    admin = cloud.admin()
    server = user.boot()
    root = server.attached_volumes[0]['id']
    lost = user.boot(wait=False, availability_zone='nowhere')
    user.wait_server(lost.id, 'ERROR')
    unknown = str(uuid.uuid4())

    events = [
        {'name': 'network-changed', 'server_uuid': server.id},
        {'name': 'volume-extended', 'server_uuid': unknown, 'tag': root},
        {'name': 'volume-extended', 'server_uuid': server.id},
        {'name': 'volume-extended', 'server_uuid': lost.id, 'tag': root},
        {'name': 'network-vif-plugged', 'server_uuid': server.id,
         'status': 'failed', 'tag': 'port'},
    ]
    resp = _post(admin, events)
    assert resp.status_code == 207, resp.text
    answered = resp.json()['events']
    # An accepted event is "completed" whatever status it came with
    # (Nova's answer), the others "failed".
    assert [(e['code'], e['status']) for e in answered] == [
        (200, 'completed'), (404, 'failed'), (400, 'failed'),
        (422, 'failed'), (200, 'completed')]
    assert [e['server_uuid'] for e in answered] == [
        e['server_uuid'] for e in events]
    # All accepted: 200.
    resp = _post(admin, [events[0]])
    assert resp.status_code == 200, resp.text
    # The server was not touched by any of it.
    assert user.wait_server(server.id).power_state == 1


def test_versions_and_policy(cloud):
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    _attach(user, server, data)
    event = _extended(server.id, data['id'])

    # volume-extended is an event from 2.51 on: before, the whole
    # request is refused.
    admin = cloud.admin()
    resp = _post(admin, [event], version='2.50')
    assert resp.status_code == 400, resp.text
    assert 'name' in sh.message(resp)
    for bad, word in (({'name': 'volume-extended'}, 'server_uuid'),
                      (dict(event, name='reboot'), 'name'),
                      (dict(event, server_uuid='nope'), 'server_uuid'),
                      (dict(event, color='red'), 'color')):
        resp = _post(admin, [bad])
        assert resp.status_code == 400, (bad, resp.text)
        assert word in sh.message(resp), (word, resp.text)
    resp = _post(admin, [])
    assert resp.status_code == 400, resp.text
    # Members and readers (of the server's own project too) may not.
    for roles in (None, ['reader']):
        resp = _post(user, [event], roles=roles)
        assert resp.status_code == 403, resp.text
    # Another service (a user with the service role only) may.
    service = cloud.project(roles=['service'])
    resp = _post(service, [event])
    assert resp.status_code == 200, resp.text
    assert resp.json()['events'][0]['code'] == 200


# The size of a waiting extend, sent beside the event ------------------------

SIZE_HEADER = 'OpenStack-Tether-Extend-New-Size'
SENT = 'the size sent with the event'
READ = 'the size of its metadata'


def _set_host_version(version):
    """The service version of the aio's tether-compute; the old one."""
    from oslo_config import cfg
    from tether.db.compute import service as db_services
    ctx = helpers.admin_context()
    [row] = [r for r in db_services.get_all(ctx, binary='tether-compute')
             if r.host == cfg.CONF.host]
    db_services.update(ctx, row.id, {'version': version})
    return row.version


def test_a_waiting_extend_with_its_size_or_without(cloud, caplog):
    """tether's volume service sends the size an extend waits for in a
    header only a service caller may set: the host grows the disk to it
    without reading the volume. Without it (an upstream Cinder), from
    another caller, unreadable, or for a host that predates it, the host
    reads the size from the volume's metadata, as before."""
    user = cloud.project()
    admin = cloud.admin()
    service = cloud.project(roles=['service'])
    server = user.boot()
    data = user.volume(size=1)
    target = _attach(user, server, data)
    vid = data['id']
    path = user.aio.volume_path(vid)
    caplog.set_level(logging.INFO, logger='tether')
    size = 1
    cases = [
        # (caller, header, the host's service version, where the size
        # comes from)
        (service, '%s=%%d' % vid, None, SENT),
        (service, None, None, READ),
        # A size the header claims but nobody reserved: not believed.
        (admin, '%s=9' % vid, None, READ),
        (service, '%s=two' % vid, None, READ),
        (service, 'other=7', None, READ),
        (service, '%s=%%d' % vid, 12, READ),
    ]
    for caller, header, host_version, source in cases:
        size += 1
        helpers.extend_waiting(vid, size)
        headers = {SIZE_HEADER: header % size if '%d' in (header or '')
                   else header} if header else {}
        old = _set_host_version(host_version) if host_version else None
        caplog.clear()
        try:
            http = caller.compute(EVENTS_VERSION)
            resp = http.session.post(
                caller.aio.compute_url + '/os-server-external-events',
                json={'events': [_extended(server.id, vid)]},
                headers=headers)
            assert resp.status_code == 200, resp.text
            assert resp.json()['events'][0]['code'] == 200
            volume = user.wait(
                lambda: (lambda v: v if v['status'] == 'in-use' else None)(
                    user.show_volume(vid)),
                timeout=sh.TIMEOUT, interval=0.05, what='in-use')
        finally:
            if old is not None:
                _set_host_version(old)
        assert volume['size'] == size, (header, volume)
        assert sh.disk_capacity(server.id, target) == size * GiB, header
        assert sh.file_size(path) == size * GiB
        assert 'extend_new_size' not in volume['metadata']
        said = caplog.text
        assert ('waits for this host to grow it' in said and
                source in said), (header, said[-2000:])
        assert (SENT in said) == (source == SENT), header
        if header and caller is admin:
            assert 'ignored: the caller has no service token' in said
        elif header and host_version is None and source == READ \
                and 'other' not in header:
            assert 'is not <volume id>=<GiB>' in said
