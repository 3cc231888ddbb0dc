"""Attachments after failures: nothing stuck, nothing half done.

A driver failure is a real one (the volume's file is gone from the share).
A crash mid-operation is simulated as in test_restart: while the volume
service is stopped, attachments made through the API are put, through the
DB layer, in the state the API's claims leave them in.
"""

import json
import os

from tests.functional import helpers
from tests.functional.volume import message_helpers as mh
from tether.db.volume import attachment as db_attachments
from tether.db.volume import volume as db_volumes

CONNECTOR = {'host': 'recovery-host'}


def _create(http, volume, connector=None):
    body = {'volume_uuid': volume['id']}
    if connector:
        body['connector'] = connector
    resp = http.post('/attachments', json={'attachment': body})
    assert resp.status_code == 200, resp.text
    return resp.json()['attachment']


def _attachment(http, attachment_id):
    resp = http.get('/attachments/%s' % attachment_id)
    return resp.json()['attachment'] if resp.status_code == 200 else None


def _volume(http, volume):
    return http.get('/volumes/%s' % volume['id']).json()['volume']


def _failed_attach(aio, http, wait):
    volume = helpers.create_volume(http, wait_for=wait)
    attachment = _create(http, volume)
    os.unlink(aio.volume_path(volume['id']))
    resp = http.put('/attachments/%s' % attachment['id'],
                    json={'attachment': {'connector': CONNECTOR}})
    assert resp.status_code == 500, resp.text
    message = resp.json()['computeFault']['message']
    assert 'could not connect volume %s' % volume['id'] in message
    assert 'error_attaching' in message
    assert _attachment(http, attachment['id'])['status'] == 'error_attaching'
    assert _volume(http, volume)['status'] == 'available'
    # The volume cannot go while the failed attachment is there.
    resp = http.delete('/volumes/%s' % volume['id'])
    assert resp.status_code == 400
    assert 'has attachment %s (error_attaching)' % attachment['id'] in \
        resp.json()['badRequest']['message']
    return volume, attachment


def test_driver_failure_then_delete_the_attachment(aio, wait):
    http = aio.http(version='3.44')
    volume, attachment = _failed_attach(aio, http, wait)
    assert mh.of(http, volume['id']) == [(
        'VOLUME_VOLUME_004_021', 'update attachment:Failed to attach volume.')]
    resp = http.delete('/attachments/%s' % attachment['id'])
    assert resp.status_code == 200, resp.text
    assert _volume(http, volume)['status'] == 'available'
    assert http.delete('/volumes/%s' % volume['id']).status_code == 202
    wait(lambda: helpers.db_volume(volume['id']) is None, what='gone')


def test_driver_failure_then_reset_status(aio, wait):
    http = aio.http(version='3.44')
    volume, attachment = _failed_attach(aio, http, wait)
    admin = aio.http('admin', 'admin')
    resp = admin.post('/volumes/%s/action' % volume['id'], json={
        'os-reset_status': {'status': 'available',
                            'attach_status': 'detached'}})
    assert resp.status_code == 202, resp.text
    assert _attachment(http, attachment['id']) is None
    assert http.delete('/volumes/%s' % volume['id']).status_code == 202
    wait(lambda: helpers.db_volume(volume['id']) is None, what='gone')


def test_reset_status_in_use_needs_an_attached_attachment(aio, wait):
    http = aio.http(version='3.44')
    volume = helpers.create_volume(http, wait_for=wait)
    admin = aio.http('admin', 'admin')
    action = '/volumes/%s/action' % volume['id']
    resp = admin.post(action, json={'os-reset_status': {'status': 'in-use'}})
    assert resp.status_code == 400
    assert 'no attached attachment' in resp.json()['badRequest']['message']
    attachment = _create(http, volume, CONNECTOR)
    http.post('/attachments/%s/action' % attachment['id'],
              json={'os-complete': {}})
    resp = admin.post(action, json={'os-reset_status': {'status': 'in-use'}})
    assert resp.status_code == 202, resp.text


def test_restart_settles_attachments_left_mid_operation(aio, wait):
    http = aio.http(version='3.44')
    ctx = helpers.admin_context()
    attaching = helpers.create_volume(http, wait_for=wait)
    connected = helpers.create_volume(http, wait_for=wait)
    detaching = helpers.create_volume(http, wait_for=wait)
    never_connected = _create(http, attaching)
    not_completed = _create(http, connected, CONNECTOR)
    being_deleted = _create(http, detaching, CONNECTOR)
    http.post('/attachments/%s/action' % being_deleted['id'],
              json={'os-complete': {}})

    def crash():
        # A PUT whose call never reached the driver, and a DELETE whose
        # call never reached it, as their claims left them.
        assert db_attachments.conditional_update(
            ctx, never_connected['id'],
            {'attach_status': 'attaching', 'attached_host': 'h',
             'connector': json.dumps(CONNECTOR)}, ['reserved'])
        assert db_volumes.conditional_update(
            ctx, attaching['id'], {'status': 'attaching'}, ['reserved'])
        assert db_attachments.conditional_update(
            ctx, being_deleted['id'], {'attach_status': 'detached'},
            ['attached'])
        assert db_volumes.conditional_update(
            ctx, detaching['id'], {'status': 'detaching'}, ['in-use'])

    aio.restart_volume_service(before_start=crash)

    assert _attachment(http, never_connected['id'])['status'] == \
        'error_attaching'
    assert _volume(http, attaching)['status'] == 'available'
    assert _attachment(http, being_deleted['id']) is None
    assert _volume(http, detaching)['status'] == 'available'
    # Connected but not completed: the consumer may still complete it.
    assert _attachment(http, not_completed['id'])['status'] == 'attaching'
    resp = http.post('/attachments/%s/action' % not_completed['id'],
                     json={'os-complete': {}})
    assert resp.status_code == 204, resp.text
    assert _volume(http, connected)['status'] == 'in-use'
    # The failed one is deleted like any other; the volume can go.
    resp = http.delete('/attachments/%s' % never_connected['id'])
    assert resp.status_code == 200, resp.text
    assert http.delete('/volumes/%s' % attaching['id']).status_code == 202
