"""Group snapshots (/group_snapshots) and groups made of a source
(create-from-src) over HTTP: a snapshot of every volume of a group in
one moment (real qcow2 overlays on the share), their quota, reset_status,
and new groups made of a group snapshot or of a group, whose volumes hold
the data of their sources.
"""

import json
import os
import subprocess

import pytest

from tests.functional.volume import group_helpers as gh


@pytest.fixture
def admin_http(aio):
    return aio.http('admin', 'admin', version=gh.VERSION)


@pytest.fixture
def http(aio):
    return aio.http(version=gh.VERSION)


@pytest.fixture
def group_with_volumes(admin_http, http, wait):
    gtype = gh.group_type(admin_http)
    vtype = gh.volume_type(admin_http)
    group = gh.group(http, gtype['id'], [vtype['id']], wait_for=wait)
    volumes = [gh.volume(http, group['id'], vtype['id'], wait, size=size)
               for size in (1, 2)]
    return group, volumes


def _write(path, data, offset=0):
    with open(path, 'r+b') as f:
        f.seek(offset)
        f.write(data)


def _write_overlay(path, data):
    """``data`` at offset 0 of the qcow2 file ``path`` (a volume's
    active file after a snapshot), through QEMU's block layer."""
    pattern = path + '.pattern'
    with open(pattern, 'wb') as f:
        f.write(data)
    try:
        subprocess.run(['qemu-io', '-f', 'qcow2', '-c',
                        'write -s %s 0 %d' % (pattern, len(data)), path],
                       check=True, capture_output=True)
    finally:
        os.unlink(pattern)


def _read(path, size, offset=0):
    with open(path, 'rb') as f:
        f.seek(offset)
        return f.read(size)


def test_life_cycle(aio, http, group_with_volumes, wait):
    group, volumes = group_with_volumes
    before = gh.usage(http.project)
    created = gh.group_snapshot(http, group['id'], name='nightly',
                                description='both')
    assert set(created) == {'id', 'name', 'group_type_id'}
    assert created['group_type_id'] == group['group_type']
    path = '/group_snapshots/%s' % created['id']
    shown = gh.wait_status(http, path, 'group_snapshot', 'available', wait)
    assert (shown['name'], shown['description'], shown['group_id']) == (
        'nightly', 'both', group['id'])

    # A snapshot of each volume, taken in the group snapshot: qcow2
    # overlays on the share, as any snapshot of the NFS driver.
    snapshots = [s for s in http.get('/snapshots/detail').json()[
        'snapshots'] if s['group_snapshot_id'] == created['id']]
    assert sorted(s['volume_id'] for s in snapshots) == sorted(
        v['id'] for v in volumes)
    for snapshot in snapshots:
        assert snapshot['status'] == 'available'
        assert snapshot['name'] == 'nightly'
        base = aio.volume_path(snapshot['volume_id'])
        with open(base + '.info') as f:
            assert json.load(f)[snapshot['id']] == os.path.basename(
                base) + '.' + snapshot['id']
    assert gh.usage(http.project) == dict(
        before, snapshots=before['snapshots'] + 2,
        gigabytes=before['gigabytes'] + 3)

    listed = http.get('/group_snapshots').json()['group_snapshots']
    assert {'id': created['id'], 'name': 'nightly'} in listed
    detail = http.get('/group_snapshots/detail?group_id=%s' % group['id'])
    assert [g['id'] for g in detail.json()['group_snapshots']] == [
        created['id']]

    # Its snapshots go with it, not alone; its group waits for it.
    gh.error(http.delete('/snapshots/%s' % snapshots[0]['id']), 400)
    gh.error(gh.delete_group(http, group['id'], delete_volumes=True), 400)
    gh.error(http.delete('/volumes/%s' % volumes[0]['id']), 400)

    assert http.delete(path).status_code == 202
    gh.wait_gone(http, path, wait)
    for snapshot in snapshots:
        assert http.get('/snapshots/%s' % snapshot['id']).status_code == 404
        assert not os.path.exists(
            aio.volume_path(snapshot['volume_id']) + '.' + snapshot['id'])
    assert gh.usage(http.project) == before
    assert gh.delete_group(http, group['id'],
                           delete_volumes=True).status_code == 202
    gh.wait_gone(http, '/groups/%s' % group['id'], wait)


def test_an_empty_group_has_an_empty_group_snapshot(admin_http, http, wait):
    gtype = gh.group_type(admin_http)
    vtype = gh.volume_type(admin_http)
    group = gh.group(http, gtype['id'], [vtype['id']])
    created = gh.group_snapshot(http, group['id'])
    path = '/group_snapshots/%s' % created['id']
    assert http.get(path).json()['group_snapshot']['status'] == 'available'
    # A group made of it would be empty: Cinder's 400.
    gh.error(http.post('/groups/action', json={'create-from-src': {
        'group_snapshot_id': created['id']}}), 400)
    assert http.delete(path).status_code == 202
    assert http.get(path).status_code == 404
    assert gh.delete_group(http, group['id']).status_code == 202


def test_reset_status(aio, admin_http, http, group_with_volumes, wait):
    group, _volumes = group_with_volumes
    created = gh.group_snapshot(http, group['id'], wait_for=wait)
    path = '/group_snapshots/%s' % created['id']
    for status in ('creating', 'available', 'error'):
        resp = admin_http.post(path + '/action', json={
            'reset_status': {'status': status}})
        assert resp.status_code == 202, resp.text
        assert http.get(path).json()['group_snapshot']['status'] == status
    assert http.post(path + '/action', json={
        'reset_status': {'status': 'available'}}).status_code == 403
    old = aio.http('admin', 'admin', version='3.18')
    assert old.post(path + '/action', json={
        'reset_status': {'status': 'available'}}).status_code == 404
    gh.error(admin_http.post(path + '/action', json={
        'reset_status': {'status': 'bogus'}}), 400)
    assert http.delete(path).status_code == 202
    gh.wait_gone(http, path, wait)


def test_groups_made_of_a_group_snapshot_and_of_a_group(
        aio, http, group_with_volumes, wait):
    group, volumes = group_with_volumes
    for volume in volumes:
        _write(aio.volume_path(volume['id']), b'before ' + volume['id'][
            :8].encode())
    group_snapshot = gh.group_snapshot(http, group['id'], wait_for=wait)
    for snapshot in http.get('/snapshots/detail').json()['snapshots']:
        if snapshot['group_snapshot_id'] == group_snapshot['id']:
            # After the snapshot: the volume's active file is its overlay.
            _write_overlay('%s.%s' % (aio.volume_path(
                snapshot['volume_id']), snapshot['id']), b'after the snap!')
    before = gh.usage(http.project)

    resp = http.post('/groups/action', json={'create-from-src': {
        'group_snapshot_id': group_snapshot['id'], 'name': 'restored'}})
    assert resp.status_code == 202, resp.text
    made = resp.json()['group']
    assert made['name'] == 'restored'
    shown = gh.wait_status(http, '/groups/%s?list_volume=true' % made['id'],
                           'group', 'available', wait)
    assert shown['group_snapshot_id'] == group_snapshot['id']
    assert (shown['group_type'], shown['volume_types']) == (
        group['group_type'], group['volume_types'])
    assert len(shown['volumes']) == 2
    by_source = {}
    for volume_id in shown['volumes']:
        body = http.get('/volumes/%s' % volume_id).json()['volume']
        assert (body['status'], body['group_id']) == (
            'available', made['id'])
        by_source[body['snapshot_id']] = body
    assert gh.usage(http.project) == dict(
        before, groups=before['groups'] + 1,
        volumes=before['volumes'] + 2, gigabytes=before['gigabytes'] + 3)
    for snapshot in http.get('/snapshots/detail').json()['snapshots']:
        if snapshot['group_snapshot_id'] != group_snapshot['id']:
            continue
        new = by_source[snapshot['id']]
        assert new['size'] == snapshot['size']
        data = _read(aio.volume_path(new['id']), 15)
        assert data == b'before ' + snapshot['volume_id'][:8].encode()

    resp = http.post('/groups/action', json={'create-from-src': {
        'source_group_id': made['id'], 'name': 'copy'}})
    assert resp.status_code == 202, resp.text
    copy = gh.wait_status(http, '/groups/%s?list_volume=true'
                          % resp.json()['group']['id'], 'group',
                          'available', wait)
    assert copy['source_group_id'] == made['id']
    assert sorted(http.get('/volumes/%s' % v).json()['volume'][
        'source_volid'] for v in copy['volumes']) == sorted(
            shown['volumes'])
    for volume_id in copy['volumes']:
        assert _read(aio.volume_path(volume_id), 7) == b'before '

    for g in (copy, shown):
        assert gh.delete_group(http, g['id'],
                               delete_volumes=True).status_code == 202
        gh.wait_gone(http, '/groups/%s' % g['id'], wait)
    assert http.delete('/group_snapshots/%s' % group_snapshot['id']
                       ).status_code == 202
    gh.wait_gone(http, '/group_snapshots/%s' % group_snapshot['id'], wait)
    assert gh.usage(http.project) == dict(
        before, snapshots=before['snapshots'] - 2,
        gigabytes=before['gigabytes'] - 3)
