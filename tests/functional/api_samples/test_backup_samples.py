"""The volume API's samples of backups (doc/api_samples/volume/),
replayed: a backup made, listed, shown, renamed, restored into a new
volume, its record exported and imported under another id, reset and
force deleted by an administrator, and deleted."""

import base64
import json
import uuid

from tests.functional.api_samples import samples
from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh

VERSION = '3.71'


def test_the_backups_story(aio, wait):
    http = aio.http(version=VERSION)
    admin = aio.http('admin', http.project, roles=['admin'],
                     version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    story = samples.Samples('volume', http, volume_id=volume['id'])
    made = story.exchange('backup-create', 'POST', '/backups', {
        'backup': {'volume_id': volume['id'], 'name': 'nightly',
                   'description': 'before the upgrade',
                   'container': 'nightly', 'metadata': {'kind': 'full'}}},
        version=VERSION)['backup']
    bh.wait_status(http, made['id'], 'available', wait)
    shown = samples.Samples('volume', http, volume_id=volume['id'],
                            backup_id=made['id'])
    one = '/backups/%s' % made['id']
    shown.exchange('backups-list', 'GET', '/backups', version=VERSION)
    shown.exchange('backups-list-detail', 'GET', '/backups/detail',
                   version=VERSION)
    shown.exchange('backup-show', 'GET', one, version=VERSION)
    shown.exchange('backup-update', 'PUT', one, {'backup': {
        'name': 'weekly', 'metadata': {'kind': 'weekly'}}}, version=VERSION)
    restored = shown.exchange('backup-restore', 'POST', one + '/restore', {
        'restore': {'name': 'restored'}}, version=VERSION)['restore']
    helpers.wait_until_status(http, restored['volume_id'], 'available',
                              wait)
    bh.wait_status(http, made['id'], 'available', wait)
    # A volume create naming the backup (3.47): a restore the create
    # describes.
    from_backup = shown.exchange('volume-create-from-backup', 'POST',
                                 '/volumes', {'volume': {
                                     'backup_id': made['id'], 'size': 2,
                                     'name': 'from-backup'}},
                                 version=VERSION)['volume']
    helpers.wait_until_status(http, from_backup['id'], 'available', wait)
    bh.wait_status(http, made['id'], 'available', wait)

    records = samples.Samples('volume', admin, backup_id=made['id'])
    record = records.exchange('backup-record-export', 'GET',
                              one + '/export_record',
                              version=VERSION)['backup-record']
    copy_id = str(uuid.uuid4())
    fields = json.loads(base64.b64decode(record['backup_url']))
    url = base64.b64encode(json.dumps(dict(
        fields, id=copy_id)).encode()).decode()
    imported = samples.Samples('volume', admin, backup_id=copy_id,
                               backup_url=url)
    imported.exchange('backup-record-import', 'POST',
                      '/backups/import_record', {'backup-record': {
                          'backup_service': record['backup_service'],
                          'backup_url': url}}, version=VERSION)
    bh.wait_status(admin, copy_id, 'available', wait)
    imported.exchange('backup-reset-status', 'POST',
                      '/backups/%s/action' % copy_id,
                      {'os-reset_status': {'status': 'error'}},
                      version=VERSION)
    imported.exchange('backup-force-delete', 'POST',
                      '/backups/%s/action' % copy_id,
                      {'os-force_delete': {}}, version=VERSION)
    bh.wait_gone(admin, copy_id, wait)
    # (The copy's delete removed the data both named.)
    shown.exchange('backup-delete', 'DELETE', one, version=VERSION)
    bh.wait_gone(http, made['id'], wait)
    for volume_id in (volume['id'], restored['volume_id']):
        assert http.delete('/volumes/%s' % volume_id).status_code == 202
