"""The revert of a volume to its latest snapshot (3.40) over HTTP, with
openstacksdk and ``openstack volume revert``: the data written after the
snapshot is gone (written and read with the real qemu-io and qemu-img),
both end ``available``; each refusal names the problem and changes
nothing; a race with the snapshot's delete has one winner."""

import json
import os
import subprocess
import uuid

from tests.functional import cli as cli_mod
from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh

V340 = 'volume 3.40'
KiB = 1024


def _active(aio, volume_id):
    """(path, format) of the file the volume's data is written to."""
    base = aio.volume_path(volume_id)
    try:
        with open(base + '.info') as f:
            name = json.load(f)['active']
    except FileNotFoundError:
        return base, helpers.virtual_size(base)[1]
    return os.path.join(os.path.dirname(base), name), 'qcow2'


def _write(aio, volume_id, pattern):
    path, fmt = _active(aio, volume_id)
    subprocess.run(['qemu-io', '-f', fmt, '-c',
                    'write -P %d 0 64k' % pattern, path],
                   check=True, capture_output=True)


def _first_bytes(aio, volume_id, tmp_path):
    path, fmt = _active(aio, volume_id)
    out = str(tmp_path / ('read-%s.raw' % uuid.uuid4().hex[:6]))
    subprocess.run(['qemu-img', 'convert', '-U', '-f', fmt, '-O', 'raw',
                    path, out], check=True, capture_output=True)
    with open(out, 'rb') as f:
        data = f.read(64 * KiB)
    os.unlink(out)
    return data


def _revert(http, volume_id, snapshot_id, version=V340):
    return http.post('/volumes/%s/action' % volume_id,
                     json={'revert': {'snapshot_id': snapshot_id}},
                     headers={'OpenStack-API-Version': version})


def _status(http, path, key):
    return http.get(path).json()[key]['status']


def _volume_and_snapshot(aio, http, wait):
    volume = helpers.create_volume(http, wait_for=wait)
    _write(aio, volume['id'], 0x41)
    snapshot = sh.snapshot(http, volume['id'], wait_for=wait)
    _write(aio, volume['id'], 0x42)
    return volume, snapshot


def test_revert_with_openstacksdk_brings_the_data_back(aio, wait,
                                                       tmp_path):
    http = aio.http()
    conn = aio.sdk(http.user, http.project)
    volume, snapshot = _volume_and_snapshot(aio, http, wait)
    assert _first_bytes(aio, volume['id'], tmp_path) == b'B' * 64 * KiB
    conn.block_storage.revert_volume_to_snapshot(volume['id'],
                                                 snapshot['id'])
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    sh.wait_status(http, snapshot['id'], 'available', wait)
    assert _first_bytes(aio, volume['id'], tmp_path) == b'A' * 64 * KiB
    # The chain is whole: written again, and the snapshot deleted (its
    # overlay merged down), the volume reads what was written last.
    _write(aio, volume['id'], 0x43)
    assert http.delete('/snapshots/%s' % snapshot['id']).status_code == 202
    sh.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert _first_bytes(aio, volume['id'], tmp_path) == b'C' * 64 * KiB
    assert helpers.usage(http.project)['gigabytes'] == (1, 0)


def test_openstack_volume_revert(aio, wait, tmp_path):
    http = aio.http()
    volume, snapshot = _volume_and_snapshot(aio, http, wait)
    cli = cli_mod.CLI(aio, tmp_path, http.user, http.project)
    cli.run('--os-volume-api-version', '3.40', 'volume', 'revert',
            snapshot['id'])
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    sh.wait_status(http, snapshot['id'], 'available', wait)
    assert _first_bytes(aio, volume['id'], tmp_path) == b'A' * 64 * KiB


def test_refusals_name_the_problem_and_change_nothing(aio, wait, tmp_path):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    reader = aio.http(None, http.project, roles=['reader'])
    volume = helpers.create_volume(http, wait_for=wait)
    vid = volume['id']
    unknown = str(uuid.UUID(int=13))
    assert 'no snapshots' in sh.error(_revert(http, vid, unknown), 400)
    first = sh.snapshot(http, vid, wait_for=wait)
    _write(aio, vid, 0x41)
    latest = sh.snapshot(http, vid, wait_for=wait)
    _write(aio, vid, 0x42)
    assert unknown in sh.error(_revert(http, unknown, latest['id']), 404)
    assert _revert(aio.http(), vid, latest['id']).status_code == 404
    assert 'volume:revert_to_snapshot' in sh.error(
        _revert(reader, vid, latest['id']), 403)
    # Below 3.40 the action is not served: 404 naming the versions.
    assert '3.40' in sh.error(_revert(http, vid, latest['id'],
                                      version='volume 3.39'), 404)
    assert 'snapshot_id' in sh.error(http.post(
        '/volumes/%s/action' % vid, json={'revert': {}},
        headers={'OpenStack-API-Version': V340}), 400)
    assert 'snapshot_id' in sh.error(_revert(http, vid, 'nope'), 400)
    msg = sh.error(_revert(http, vid, first['id']), 400)
    assert 'not the latest' in msg and latest['id'] in msg
    # The volume not available: Cinder's 409.
    resp = admin.post('/volumes/%s/action' % vid,
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    assert 'error' in sh.error(_revert(http, vid, latest['id']), 409)
    resp = admin.post('/volumes/%s/action' % vid,
                      json={'os-reset_status': {'status': 'available'}})
    assert resp.status_code == 202, resp.text
    # The snapshot not available: 409, and the volume left available.
    resp = admin.post('/snapshots/%s/action' % latest['id'],
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    assert 'snapshot is error' in sh.error(
        _revert(http, vid, latest['id']), 409)
    assert _status(http, '/volumes/%s' % vid, 'volume') == 'available'
    resp = admin.post('/snapshots/%s/action' % latest['id'],
                      json={'os-reset_status': {'status': 'available'}})
    assert resp.status_code == 202, resp.text
    assert _first_bytes(aio, vid, tmp_path) == b'B' * 64 * KiB


def test_a_volume_extended_since_its_snapshot(aio, wait, tmp_path):
    http = aio.http()
    volume, snapshot = _volume_and_snapshot(aio, http, wait)
    resp = http.post('/volumes/%s/action' % volume['id'],
                     json={'os-extend': {'new_size': 2}})
    assert resp.status_code == 202, resp.text
    wait(lambda: http.get('/volumes/%s' % volume['id']).json()['volume'][
        'size'] == 2 and _status(http, '/volumes/%s' % volume['id'],
                                 'volume') == 'available', what='extended')
    msg = sh.error(_revert(http, volume['id'], snapshot['id']), 400)
    assert 'sizes must be equal' in msg
    assert _status(http, '/snapshots/%s' % snapshot['id'],
                   'snapshot') == 'available'
    assert _first_bytes(aio, volume['id'], tmp_path) == b'B' * 64 * KiB


def test_a_revert_that_fails_leaves_the_volume_in_error(aio, wait):
    """The backend cannot make the new overlay (its share is read-only
    for a moment: a real failure of the real qemu-img, no tether code
    replaced): the volume error, the snapshot available."""
    http = aio.http()
    volume, snapshot = _volume_and_snapshot(aio, http, wait)
    share = os.path.dirname(aio.volume_path(volume['id']))
    blocker = aio.volume_path(volume['id']) + '.' + snapshot['id'] + \
        '.revert'
    # A directory where the new overlay is made: qemu-img cannot
    # create it (and unlink() of a directory fails too).
    os.mkdir(blocker)
    try:
        assert _revert(http, volume['id'], snapshot['id']).status_code \
            == 202
        wait(lambda: _status(http, '/volumes/%s' % volume['id'],
                             'volume') == 'error', what='volume error')
    finally:
        os.rmdir(blocker)
    sh.wait_status(http, snapshot['id'], 'available', wait)
    assert os.path.isdir(share)


def test_revert_races_the_snapshot_delete(aio, wait, tmp_path):
    """One wins whole: reverted (the delete refused, 400) or deleted
    (the revert refused: 409 or 400), never a half of each."""
    http = aio.http()
    for _ in range(3):
        volume, snapshot = _volume_and_snapshot(aio, http, wait)
        one = aio.http(http.user, http.project)
        two = aio.http(http.user, http.project)
        revert, delete = helpers.race([
            lambda: _revert(one, volume['id'], snapshot['id']),
            lambda: two.delete('/snapshots/%s' % snapshot['id'])])
        if revert.status_code == 202:
            assert delete.status_code == 400, delete.text
            helpers.wait_until_status(http, volume['id'], 'available',
                                      wait)
            sh.wait_status(http, snapshot['id'], 'available', wait)
            assert _first_bytes(aio, volume['id'], tmp_path) == \
                b'A' * 64 * KiB
        else:
            assert revert.status_code in (400, 409), revert.text
            assert delete.status_code == 202, delete.text
            sh.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
            assert _status(http, '/volumes/%s' % volume['id'],
                           'volume') == 'available'
            assert _first_bytes(aio, volume['id'], tmp_path) == \
                b'B' * 64 * KiB


def test_a_revert_left_by_a_restart_runs_again(aio, wait, tmp_path):
    """tether-volume stopped after the API claimed a revert (the volume
    reverting, the snapshot restoring, through the database layer while
    no manager runs): its next start reverts."""
    from tether.db.volume import snapshot as db_snapshots
    from tether.db.volume import volume as db_volumes
    http = aio.http()
    volume, snapshot = _volume_and_snapshot(aio, http, wait)

    def claimed():
        ctx = helpers.admin_context()
        assert db_volumes.conditional_update(
            ctx, volume['id'], {'status': 'reverting'}, ['available'])
        assert db_snapshots.conditional_update(
            ctx, snapshot['id'], {'status': 'restoring'}, ['available'])
    aio.restart_volume_service(claimed)
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    sh.wait_status(http, snapshot['id'], 'available', wait)
    assert _first_bytes(aio, volume['id'], tmp_path) == b'A' * 64 * KiB
