"""A volume's flags over HTTP: os-set_bootable (200, policy volume:update,
refused in maintenance) and os-update_readonly_flag (202, the volume
available; the admin metadata ``readonly``, shown in ``metadata``, makes
its attachments' connections ``ro``), with openstacksdk and the
``openstack volume set`` CLI."""

import uuid

from tests.functional import cli as cli_mod
from tests.functional import helpers

V354 = {'OpenStack-API-Version': 'volume 3.54'}


def _post(http, volume_id, body):
    return http.post('/volumes/%s/action' % volume_id, json=body)


def _error(resp, status):
    assert resp.status_code == status, resp.text
    return next(iter(resp.json().values()))['message']


def _show(http, volume_id):
    return http.get('/volumes/%s' % volume_id).json()['volume']


def _connect(http, volume_id, mode='rw'):
    resp = http.post('/attachments', headers=V354, json={'attachment': {
        'volume_uuid': volume_id, 'instance_uuid': str(uuid.uuid4()),
        'mode': mode,
        'connector': {'host': 'h1', 'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 200, resp.text
    return resp.json()['attachment']


def test_bootable_with_openstacksdk_and_strings(aio, wait):
    http = aio.http()
    conn = aio.sdk(http.user, http.project)
    volume = helpers.create_volume(http, wait_for=wait)
    assert _show(http, volume['id'])['bootable'] == 'false'
    conn.block_storage.set_volume_bootable_status(volume['id'], True)
    assert conn.block_storage.get_volume(volume['id']).is_bootable is True
    resp = _post(http, volume['id'], {'os-set_bootable': {'bootable': 'no'}})
    assert resp.status_code == 200, resp.text
    assert resp.content == b''
    assert _show(http, volume['id'])['bootable'] == 'false'
    # Any status but maintenance (Cinder's volume update).
    admin = aio.http('admin', http.project, roles=['admin'])
    resp = admin.post('/volumes/%s/action' % volume['id'],
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    assert _post(http, volume['id'], {'os-set_bootable': {
        'bootable': 'yes'}}).status_code == 200
    assert _show(http, volume['id'])['bootable'] == 'true'


def test_readonly_makes_connections_ro(aio, wait):
    http = aio.http()
    conn = aio.sdk(http.user, http.project)
    volume = helpers.create_volume(http, wait_for=wait)
    conn.block_storage.set_volume_readonly(volume['id'], True)
    assert _show(http, volume['id'])['metadata'] == {'readonly': 'True'}
    # Asked rw: connected ro (the flag overrides the mode, as Cinder's).
    attachment = _connect(http, volume['id'], 'rw')
    assert attachment['attach_mode'] == 'ro'
    assert attachment['connection_info']['data']['access_mode'] == 'ro'
    assert http.delete('/attachments/%s' % attachment['id'],
                       headers=V354).ok
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    resp = _post(http, volume['id'],
                 {'os-update_readonly_flag': {'readonly': 'false'}})
    assert resp.status_code == 202, resp.text
    assert _show(http, volume['id'])['metadata'] == {'readonly': 'False'}
    attachment = _connect(http, volume['id'], 'rw')
    assert attachment['connection_info']['data']['access_mode'] == 'rw'


def test_openstack_volume_set(aio, wait, tmp_path):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    cli = cli_mod.CLI(aio, tmp_path, http.user, http.project)
    cli.run('volume', 'set', '--bootable', '--read-only', volume['id'])
    shown = cli.json('volume', 'show', volume['id'])
    assert shown['bootable'] is True
    assert shown['properties'] == {'readonly': 'True'}
    cli.run('volume', 'set', '--non-bootable', '--read-write', volume['id'])
    shown = _show(http, volume['id'])
    assert shown['bootable'] == 'false'
    assert shown['metadata'] == {'readonly': 'False'}


def test_refusals_name_the_problem_and_change_nothing(aio, wait):
    http = aio.http()
    reader = aio.http(None, http.project, roles=['reader'])
    admin = aio.http('admin', http.project, roles=['admin'])
    unknown = str(uuid.UUID(int=11))
    boot = {'os-set_bootable': {'bootable': True}}
    ro = {'os-update_readonly_flag': {'readonly': True}}
    for body in (boot, ro):
        assert unknown in _error(_post(http, unknown, body), 404)
    volume = helpers.create_volume(http, wait_for=wait)
    vid = volume['id']
    assert _post(aio.http(), vid, boot).status_code == 404
    assert 'volume:update' in _error(_post(reader, vid, boot), 403)
    assert 'volume:update_readonly_flag' in _error(_post(reader, vid, ro),
                                                   403)
    assert 'bootable' in _error(_post(http, vid, {'os-set_bootable': {
        'bootable': 'perhaps'}}), 400)
    assert 'bootable' in _error(_post(http, vid, {'os-set_bootable': {}}),
                                400)
    assert 'readonly' in _error(_post(http, vid, {
        'os-update_readonly_flag': {'readonly': 2}}), 400)
    assert 'extra' in _error(_post(http, vid, {
        'os-update_readonly_flag': {'readonly': True, 'extra': 1}}), 400)
    # readonly: only while available (here, reserved by an attachment).
    resp = http.post('/attachments', headers=V354, json={'attachment': {
        'volume_uuid': vid, 'instance_uuid': str(uuid.uuid4())}})
    assert resp.status_code == 200, resp.text
    assert 'reserved' in _error(_post(http, vid, ro), 400)
    assert http.delete('/attachments/%s' % resp.json()['attachment']['id'],
                       headers=V354).ok
    # bootable: not in maintenance.
    resp = admin.post('/volumes/%s/action' % vid,
                      json={'os-reset_status': {'status': 'maintenance'}})
    assert resp.status_code == 202, resp.text
    assert 'maintenance' in _error(_post(http, vid, boot), 400)
    shown = _show(http, vid)
    assert shown['bootable'] == 'false'
    assert shown['metadata'] == {}


def test_readonly_races_an_attachment(aio, wait):
    """Either the flag comes first and the connection is ro, or the
    attachment does and the flag is refused: never a rw connection of a
    read-only volume."""
    http = aio.http()
    for _ in range(3):
        volume = helpers.create_volume(http, wait_for=wait)
        one = aio.http(http.user, http.project)
        two = aio.http(http.user, http.project)
        flag, attach = helpers.race([
            lambda: _post(one, volume['id'], {
                'os-update_readonly_flag': {'readonly': True}}),
            lambda: two.post('/attachments', headers=V354, json={
                'attachment': {
                    'volume_uuid': volume['id'],
                    'instance_uuid': str(uuid.uuid4()), 'mode': 'rw',
                    'connector': {'host': 'h1', 'mountpoint': '/dev/vdb'}}})])
        assert attach.status_code == 200, attach.text
        info = attach.json()['attachment']['connection_info']
        mode = info['data']['access_mode']
        if flag.status_code == 202:
            assert mode == 'ro'
        else:
            assert flag.status_code == 400, flag.text
            assert mode == 'rw'
            assert 'readonly' not in _show(http, volume['id'])['metadata']
