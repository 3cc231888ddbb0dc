"""A volume create naming a backup (microversion 3.47, ``backup_id``):
a restore into a new volume that the create describes. The data are
written with qemu-io and compared with qemu-img; tether-backup and
tether-volume run in the aio, nothing is mocked."""

import os
import uuid

from tests.functional import cli as cli_mod
from tests.functional import helpers
from tests.functional.volume import backup_helpers as bh

MiB = bh.MiB
V347 = '3.47'


def _backed_up(aio, http, wait, tmp_path, **attrs):
    """A 1 GiB volume with data, its backup, and a copy of the data."""
    volume = helpers.create_volume(http, wait_for=wait, **attrs)
    path = aio.volume_path(volume['id'])
    bh.write(path, 5 * MiB, 3 * MiB, 0x3c)
    kept = bh.keep_copy(path, tmp_path, 'at-backup')
    backup = bh.backup(http, volume['id'], wait_for=wait)
    return volume, backup, kept


def _create(http, **volume):
    return http.post('/volumes', json={'volume': volume})


def test_a_volume_made_of_a_backup_with_openstacksdk(aio, wait, tmp_path):
    http = aio.http(version=V347)
    _source, backup, kept = _backed_up(aio, http, wait, tmp_path)
    conn = aio.sdk(http.user, http.project)
    volume = conn.block_storage.create_volume(
        size=2, backup_id=backup['id'], name='from-backup',
        description='made of a backup')
    volume = conn.block_storage.wait_for_status(volume, 'available',
                                                interval=0.05, wait=60)
    assert (volume.name, volume.description, volume.size) == (
        'from-backup', 'made of a backup', 2)
    # The backup's GiB holds its data; the second GiB reads zeros.
    assert bh.same_data(aio.volume_path(volume.id), kept)
    assert os.path.getsize(aio.volume_path(volume.id)) == 2 * helpers.GiB
    assert bh.wait_status(http, backup['id'], 'available', wait)
    assert bh.usage(http.project) == {
        'volumes': 2, 'gigabytes': 3, 'backups': 1, 'backup_gigabytes': 1}


def test_its_size_is_the_backups_unless_given(aio, wait, tmp_path):
    http = aio.http(version=V347)
    _source, backup, kept = _backed_up(aio, http, wait, tmp_path)
    resp = _create(http, backup_id=backup['id'], name='sized-by-backup')
    assert resp.status_code == 202, resp.text
    made = resp.json()['volume']
    assert made['size'] == 1
    shown = helpers.wait_until_status(http, made['id'], 'available', wait)
    assert shown['size'] == 1
    assert bh.same_data(aio.volume_path(made['id']), kept)


def test_refusals_change_nothing(aio, wait, tmp_path):
    http = aio.http(version=V347)
    other = aio.http(version=V347)
    source, backup, _kept = _backed_up(aio, http, wait, tmp_path)

    def refused(client, status, words, **volume):
        resp = _create(client, **volume)
        assert resp.status_code == status, resp.text
        assert words in resp.text, resp.text

    # Smaller than the backup: the backup of a 2 GiB volume into 1 GiB.
    big = helpers.create_volume(http, size=2, wait_for=wait)
    big_backup = bh.backup(http, big['id'], wait_for=wait)
    before = bh.usage(http.project)
    refused(http, 400, 'volume size 1GB cannot be smaller than the size '
            '2GB of backup %s' % big_backup['id'],
            backup_id=big_backup['id'], size=1)
    # Below 3.47, a backup is no source.
    refused(aio.http(http.user, http.project, version='3.46'), 400,
            'needs microversion 3.47', backup_id=backup['id'], size=1)
    # One source at most.
    refused(http, 400, 'backup_id, source_volid', backup_id=backup['id'],
            source_volid=source['id'])
    # An unknown backup, and another project's.
    missing = str(uuid.uuid4())
    refused(http, 404, missing, backup_id=missing, size=1)
    refused(other, 404, backup['id'], backup_id=backup['id'], size=1)
    # A backup that is not available.
    admin = aio.http('admin', http.project, roles=['admin'], version=V347)
    resp = admin.post('/backups/%s/action' % backup['id'],
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    refused(http, 400, 'error', backup_id=backup['id'], size=1)
    assert bh.usage(http.project) == before
    assert [v['id'] for v in http.get('/volumes').json()['volumes']
            if v['id'] not in (source['id'], big['id'])] == []


def test_two_creates_of_one_backup_at_once(aio, wait, tmp_path):
    """A backup restores into one volume at a time: of two creates at
    once, one is made of it, the other is refused and leaves nothing."""
    http = aio.http(version=V347)
    source, backup, kept = _backed_up(aio, http, wait, tmp_path)
    calls = [aio.http(http.user, http.project, version=V347)
             for _ in range(2)]
    results = helpers.race([lambda c=c: _create(c, backup_id=backup['id'])
                            for c in calls])
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 400], [r.text for r in results]
    made = next(r for r in results if r.status_code == 202).json()['volume']
    refused = next(r for r in results if r.status_code == 400)
    assert 'restoring' in refused.text, refused.text
    helpers.wait_until_status(http, made['id'], 'available', wait)
    assert bh.same_data(aio.volume_path(made['id']), kept)
    assert sorted(v['id'] for v in http.get('/volumes').json()['volumes']) \
        == sorted([source['id'], made['id']])
    assert bh.usage(http.project) == {
        'volumes': 2, 'gigabytes': 2, 'backups': 1, 'backup_gigabytes': 1}


def test_openstack_volume_create_backup(aio, wait, tmp_path):
    http = aio.http(version=V347)
    _source, backup, kept = _backed_up(aio, http, wait, tmp_path)
    cli = cli_mod.CLI(aio, tmp_path, http.user, http.project)
    cli.json('--os-volume-api-version', V347, 'volume', 'create',
             '--backup', backup['id'], 'cli-from-backup')
    wait(lambda: cli.json('volume', 'show', 'cli-from-backup')[
        'status'] == 'available', timeout=60, what='volume available')
    shown = cli.json('volume', 'show', 'cli-from-backup')
    assert shown['size'] == 1
    assert bh.same_data(aio.volume_path(shown['id']), kept)
