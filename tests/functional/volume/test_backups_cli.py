"""``openstack volume backup ...`` (python-openstackclient) against the
aio, as users and administrators type it."""

import base64
import json
import uuid

from tests.functional import cli as cli_mod
from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh

MiB = bh.MiB


def test_backup_commands(aio, wait, tmp_path):
    http = aio.http()
    cli = cli_mod.CLI(aio, tmp_path, http.user, http.project)
    volume = helpers.create_volume(http, wait_for=wait, name='cli-vol')
    bh.write(aio.volume_path(volume['id']), 0, MiB, 0x61)
    kept = bh.keep_copy(aio.volume_path(volume['id']), tmp_path, 'kept')
    made = cli.json('volume', 'backup', 'create', '--name', 'cli-backup',
                    '--description', 'first', 'cli-vol')
    assert made['name'] == 'cli-backup'
    wait(lambda: cli.json('volume', 'backup', 'show', 'cli-backup')[
        'status'] == 'available', timeout=60, what='backup available')
    listed = cli.json('volume', 'backup', 'list', '--long')
    assert [(b['Name'], b['Volume'], b['Status'], b['Size'],
             b['Incremental']) for b in listed] in (
        [('cli-backup', 'cli-vol', 'available', 1, False)],
        [('cli-backup', volume['id'], 'available', 1, False)])
    inc = cli.json('volume', 'backup', 'create', '--incremental',
                   '--name', 'cli-inc', 'cli-vol')
    wait(lambda: cli.json('volume', 'backup', 'show', inc['id'])[
        'status'] == 'available', timeout=60, what='incremental available')
    shown = cli.json('volume', 'backup', 'show', 'cli-inc')
    assert shown['is_incremental'] is True
    # Restored into a new volume, by name.
    cli.json('volume', 'backup', 'restore', 'cli-backup', 'cli-restored')
    wait(lambda: cli.json('volume', 'show', 'cli-restored')[
        'status'] == 'available', timeout=60, what='restored available')
    restored = cli.json('volume', 'show', 'cli-restored')
    assert bh.same_data(aio.volume_path(restored['id']), kept)
    cli.run('volume', 'backup', 'delete', 'cli-inc')
    wait(lambda: [b['Name'] for b in cli.json('volume', 'backup', 'list')]
         == ['cli-backup'], what='incremental deleted')
    cli.run('volume', 'backup', 'delete', 'cli-backup')
    wait(lambda: cli.json('volume', 'backup', 'list') == [],
         what='backup deleted')


def test_record_export_and_import(aio, wait, tmp_path):
    """As Tempest's test_volume_backup_export_import: the record under
    another id points at the same data, which restores.

    ``openstack volume backup record import`` cannot be used: its
    openstacksdk (4.22, Backup.import_record) posts to
    /backups/export_record, with the request's own path for backup_url,
    which no Cinder serves; the import is sent as Cinder documents it.
    """
    http = aio.http()
    admin_http = aio.http('admin', http.project, roles=['admin'])
    admin = cli_mod.CLI(aio, tmp_path, 'admin', http.project,
                        roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    bh.write(aio.volume_path(volume['id']), 5 * MiB, MiB, 0x62)
    kept = bh.keep_copy(aio.volume_path(volume['id']), tmp_path, 'kept')
    backup = bh.backup(http, volume['id'], wait_for=wait, name='exported')
    record = admin.json('volume', 'backup', 'record', 'export',
                        backup['id'])
    assert record['backup_service'] == \
        'cinder.backup.drivers.posix.PosixBackupDriver'
    fields = json.loads(base64.b64decode(record['backup_url']))
    assert (fields['id'], fields['display_name'], fields['size']) == (
        backup['id'], 'exported', 1)
    new_id = str(uuid.uuid4())
    fields['id'] = new_id
    url = base64.b64encode(json.dumps(fields).encode()).decode()
    resp = admin_http.post('/backups/import_record', json={
        'backup-record': {'backup_service': record['backup_service'],
                          'backup_url': url}})
    assert resp.status_code == 201, resp.text
    assert resp.json()['backup']['id'] == new_id
    shown = bh.wait_status(http, new_id, 'available', wait)
    assert (shown['name'], shown['volume_id'], shown['container']) == (
        'exported', volume['id'], backup['container'])
    assert bh.usage(http.project)['backups'] == 2
    restored = bh.restore(http, new_id)
    helpers.wait_until_status(http, restored['volume_id'], 'available',
                              wait)
    assert bh.same_data(aio.volume_path(restored['volume_id']), kept)
    # Both point at the same data: the first delete removes it, the
    # second finds none to remove.
    for backup_id in (new_id, backup['id']):
        assert http.delete('/backups/%s' % backup_id).status_code == 202
        bh.wait_gone(http, backup_id, wait)
    assert bh.usage(http.project)['backups'] == 0
