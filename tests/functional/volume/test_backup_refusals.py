"""Backups refused over HTTP: each bad request gets a 4xx (or Cinder's
503 without a backup service) that names the problem, and leaves the
volume, the backups and the quota as they were."""

import uuid

from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh
from tests.functional.volume import snapshot_helpers as sh
from tether.db.volume import backup as db_backups


def _volume_status(http, volume_id):
    return http.get('/volumes/%s' % volume_id).json()['volume']['status']


def test_bad_creates_name_the_problem_and_leave_nothing(aio, wait):
    http = aio.http()
    other = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    theirs = helpers.create_volume(other, wait_for=wait)
    unknown = str(uuid.uuid4())

    def create(status, **body):
        resp = http.post('/backups', json={'backup': body})
        return bh.error(resp, status)
    assert unknown in create(404, volume_id=unknown)
    assert theirs['id'] in create(404, volume_id=theirs['id'])
    assert 'volume_id' in create(400, volume_id='not-a-uuid')
    assert 'bogus' in create(400, volume_id=volume['id'], bogus=1)
    assert 'incremental' in create(400, volume_id=volume['id'],
                                   incremental='perhaps')
    # metadata from 3.43, availability_zone from 3.51.
    assert 'metadata' in create(400, volume_id=volume['id'],
                                metadata={'a': 'b'})
    for container in ('/etc', '../up', 'a/../../b'):
        assert 'container' in create(400, volume_id=volume['id'],
                                     container=container)
    snapshot = sh.snapshot(http, volume['id'], wait_for=wait)
    second = helpers.create_volume(http, wait_for=wait)
    assert 'does not match' in create(400, volume_id=second['id'],
                                      snapshot_id=snapshot['id'])
    assert unknown in create(404, volume_id=volume['id'],
                             snapshot_id=unknown)
    v351 = aio.http(http.user, http.project, version='3.51')
    resp = v351.post('/backups', json={'backup': {
        'volume_id': volume['id'], 'availability_zone': 'elsewhere'}})
    assert 'elsewhere' in bh.error(resp, 503)
    assert http.get('/backups').json()['backups'] == []
    assert _volume_status(http, volume['id']) == 'available'
    assert bh.usage(http.project)['backups'] == 0


def test_a_volume_that_cannot_be_read_is_refused(aio, wait):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    body = {'backup': {'volume_id': volume['id']}}
    # Attached (an attachment connected and completed): in-use.
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id'], 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'h1', 'mountpoint': '/dev/vdb'}}},
        headers={'OpenStack-API-Version': 'volume 3.44'})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    resp = http.post('/attachments/%s/action' % attachment['id'],
                     json={'os-complete': None},
                     headers={'OpenStack-API-Version': 'volume 3.44'})
    assert resp.status_code == 204, resp.text
    assert 'force flag' in bh.error(http.post('/backups', json=body), 400)
    assert http.delete('/attachments/%s' % attachment['id'],
                       headers={'OpenStack-API-Version':
                                'volume 3.44'}).ok
    resp = admin.post('/volumes/%s/action' % volume['id'],
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    assert 'current status is "error"' in bh.error(
        http.post('/backups', json=body), 400)
    assert bh.usage(http.project)['backups'] == 0


def test_over_quota_is_refused_and_counts_nothing(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    helpers.set_limits(http.project, backups=0)
    resp = http.post('/backups', json={'backup': {
        'volume_id': volume['id']}})
    assert 'backups' in bh.error(resp, 413)
    helpers.set_limits(http.project, backups=10, backup_gigabytes=0)
    resp = http.post('/backups', json={'backup': {
        'volume_id': volume['id']}})
    assert 'backup_gigabytes' in bh.error(resp, 413)
    assert _volume_status(http, volume['id']) == 'available'
    assert bh.usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'backups': 0, 'backup_gigabytes': 0}
    assert http.get('/backups').json()['backups'] == []


def test_bad_restores_name_the_problem_and_leave_nothing(aio, wait):
    http = aio.http()
    backup_source = helpers.create_volume(http, size=2, wait_for=wait)
    backup = bh.backup(http, backup_source['id'], wait_for=wait)
    small = helpers.create_volume(http, wait_for=wait)
    assert 'too small' in bh.error(http.post(
        '/backups/%s/restore' % backup['id'],
        json={'restore': {'volume_id': small['id']}}), 400)
    unknown = str(uuid.uuid4())
    assert unknown in bh.error(http.post(
        '/backups/%s/restore' % backup['id'],
        json={'restore': {'volume_id': unknown}}), 404)
    assert 'bogus' in bh.error(http.post(
        '/backups/%s/restore' % backup['id'],
        json={'restore': {'bogus': 1}}), 400)
    theirs = aio.http()
    assert backup['id'] in bh.error(theirs.post(
        '/backups/%s/restore' % backup['id'], json={'restore': None}), 404)
    # A volume made for the restore over the quota: 413, no volume, the
    # backup available again.
    helpers.set_limits(http.project, gigabytes=3)
    assert 'gigabytes' in bh.error(http.post(
        '/backups/%s/restore' % backup['id'], json={'restore': None}), 413)
    helpers.set_limits(http.project, gigabytes=1000)
    assert http.get('/backups/%s' % backup['id']).json()['backup'][
        'status'] == 'available'
    assert bh.usage(http.project)['volumes'] == 2
    # Of a backup that is not available.
    admin = aio.http('admin', http.project, roles=['admin'])
    assert admin.post('/backups/%s/action' % backup['id'], json={
        'os-reset_status': {'status': 'error'}}).status_code == 202
    assert 'is error' in bh.error(http.post(
        '/backups/%s/restore' % backup['id'], json={'restore': None}), 400)
    assert _volume_status(http, small['id']) == 'available'


def test_deletes_and_admin_actions(aio, wait):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    backup = bh.backup(http, volume['id'], wait_for=wait)
    action = '/backups/%s/action' % backup['id']
    assert 'backup_admin_actions:reset_status' in bh.error(http.post(
        action, json={'os-reset_status': {'status': 'error'}}), 403)
    assert 'status' in bh.error(admin.post(action, json={
        'os-reset_status': {'status': 'creating'}}), 400)
    assert 'backup_admin_actions:force_delete' in bh.error(http.post(
        action, json={'os-force_delete': {}}), 403)
    assert 'os-bogus' in bh.error(admin.post(action, json={
        'os-bogus': {}}), 400)
    # A backup restoring is not deleted, but force deleted.
    assert admin.post(action, json={'os-reset_status': {
        'status': 'available'}}).status_code == 202
    assert db_backups.conditional_update(helpers.admin_context(),
                                         backup['id'],
                                         {'status': 'restoring'},
                                         ['available'])
    assert 'is restoring' in bh.error(
        http.delete('/backups/%s' % backup['id']), 400)
    assert admin.post(action, json={'os-force_delete': None}
                      ).status_code == 202
    bh.wait_gone(http, backup['id'], wait)
    assert bh.usage(http.project)['backups'] == 0
    # Export and import are the administrators'.
    other = bh.backup(http, volume['id'], wait_for=wait)
    assert 'backup:export-import' in bh.error(http.get(
        '/backups/%s/export_record' % other['id']), 403)
    assert 'backup:backup-import' in bh.error(http.post(
        '/backups/import_record', json={'backup-record': {
            'backup_service': 'x', 'backup_url': 'eyJ9'}}), 403)
