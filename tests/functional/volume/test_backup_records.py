"""Imports of backup records that name no backup, or that are not
records: refused (400), or the imported backup ends in error with its
quota given back, having written nothing and deleting nothing."""

import base64
import json
import os
import uuid

from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh


def _url(fields):
    return base64.b64encode(json.dumps(fields).encode()).decode()


def _import(http, service, url, status=201):
    resp = http.post('/backups/import_record', json={'backup-record': {
        'backup_service': service, 'backup_url': url}})
    assert resp.status_code == status, resp.text
    return resp.json()['backup'] if status == 201 else resp


def test_records_that_name_no_backup(aio, wait):
    admin = aio.http('admin', 'admin-%s' % uuid.uuid4().hex[:8],
                     roles=['admin'])
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    backup = bh.backup(http, volume['id'], wait_for=wait)
    record = admin.get('/backups/%s/export_record' % backup['id']).json()[
        'backup-record']
    service = record['backup_service']
    fields = json.loads(base64.b64decode(record['backup_url']))

    assert 'base64' in bh.error(_import(admin, service, '%%%', 400), 400)
    assert 'JSON' in bh.error(_import(admin, service,
                                      base64.b64encode(b'[1').decode(),
                                      400), 400)
    assert 'no size' in bh.error(_import(
        admin, service, _url(dict(fields, id=str(uuid.uuid4()),
                                  size='1')), 400), 400)
    assert 'already exists' in bh.error(_import(
        admin, service, record['backup_url'], 400), 400)
    assert bh.usage(admin.project)['backups'] == 0

    # Files that are not there: error, the quota given back, and its
    # delete removes nothing of the backup it named.
    ghost = dict(fields, id=str(uuid.uuid4()),
                 service_metadata='volume_x_20260101000000_backup_none')
    made = _import(admin, service, _url(ghost))
    shown = bh.wait_status(admin, made['id'], 'error', wait)
    assert 'cannot be read' in shown['fail_reason']
    assert shown['volume_id'] == '00000000-0000-0000-0000-000000000000'
    assert bh.usage(admin.project)['backups'] == 0
    assert admin.delete('/backups/%s' % made['id']).status_code == 202
    bh.wait_gone(admin, made['id'], wait)
    # Another driver's record.
    made = _import(admin, 'cinder.backup.drivers.swift.SwiftBackupDriver',
                   _url(dict(fields, id=str(uuid.uuid4()))))
    assert 'SwiftBackupDriver' in bh.wait_status(
        admin, made['id'], 'error', wait)['fail_reason']
    # The backup it was exported from is whole.
    assert len(bh.backup_files(aio, backup)) == 18
    assert os.path.isdir(os.path.join(aio.backup_dir, backup['container']))
    assert http.get('/backups/%s' % backup['id']).json()['backup'][
        'status'] == 'available'
