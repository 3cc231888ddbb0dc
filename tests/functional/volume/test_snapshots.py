"""Snapshots (/snapshots) over HTTP: life cycle with openstacksdk, the
files on the share, microversions, metadata, lists, status reports and
a restart (their refusals: test_snapshot_refusals.py).

Real qemu-img makes the chains (tether.drivers.volume.remotefs_snapshots);
nothing is mocked.
"""

import json
import os
import uuid

from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh


def test_life_cycle_with_openstacksdk(aio, wait):
    conn = aio.sdk()
    volume = conn.block_storage.create_volume(size=1, name='base')
    volume = conn.block_storage.wait_for_status(volume, 'available',
                                                interval=0.05, wait=30)
    snapshot = conn.block_storage.create_snapshot(
        volume_id=volume.id, name='first', description='before',
        metadata={'kind': 'nightly'})
    assert snapshot.status == 'creating'
    snapshot = conn.block_storage.wait_for_status(snapshot, 'available',
                                                  interval=0.05, wait=30)
    assert (snapshot.name, snapshot.description, snapshot.size,
            snapshot.volume_id) == ('first', 'before', 1, volume.id)
    assert snapshot.metadata == {'kind': 'nightly'}

    # The volume's files: a qcow2 overlay per snapshot, and the info file
    # that names the active one, as Cinder's remotefs drivers keep them.
    base = aio.volume_path(volume.id)
    overlay = '%s.%s' % (base, snapshot.id)
    assert os.path.exists(overlay)
    with open(base + '.info') as f:
        assert json.load(f)['active'] == os.path.basename(overlay)
    assert helpers.virtual_size(overlay) == (helpers.GiB, 'qcow2')

    listed = list(conn.block_storage.snapshots(volume_id=volume.id))
    assert [s.id for s in listed] == [snapshot.id]
    conn.block_storage.update_snapshot(snapshot, name='renamed')
    assert conn.block_storage.get_snapshot(snapshot.id).name == 'renamed'
    assert sh.usage(conn.test_project) == {
        'volumes': 1, 'gigabytes': 2, 'snapshots': 1}

    conn.block_storage.delete_snapshot(snapshot)
    conn.block_storage.wait_for_delete(snapshot, interval=0.05, wait=30)
    assert not os.path.exists(overlay)
    assert not os.path.exists(base + '.info')
    assert helpers.virtual_size(base) == (helpers.GiB, 'raw')
    assert sh.usage(conn.test_project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}
    conn.block_storage.delete_volume(volume)
    conn.block_storage.wait_for_delete(volume, interval=0.05, wait=30)
    assert sh.usage(conn.test_project) == {
        'volumes': 0, 'gigabytes': 0, 'snapshots': 0}


def test_responses_follow_the_microversion(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    created = sh.snapshot(http, volume['id'], wait_for=wait)
    base_keys = {'id', 'created_at', 'updated_at', 'name', 'description',
                 'volume_id', 'status', 'size', 'metadata'}
    resp = http.get('/snapshots')
    assert set(resp.json()['snapshots'][0]) == base_keys
    shown = http.get('/snapshots/%s' % created['id']).json()['snapshot']
    assert set(shown) == base_keys | {
        'os-extended-snapshot-attributes:project_id',
        'os-extended-snapshot-attributes:progress'}
    assert shown['os-extended-snapshot-attributes:project_id'] == \
        http.project
    assert shown['os-extended-snapshot-attributes:progress'] == '100%'
    latest = aio.http(http.user, http.project, version='3.71')
    shown = latest.get('/snapshots/%s' % created['id']).json()['snapshot']
    assert shown['user_id'] == http.user
    assert shown['group_snapshot_id'] is None
    assert shown['consumes_quota'] is True
    counted = latest.get('/snapshots/detail?with_count=true').json()
    assert counted['count'] == 1
    # As Cinder: a list without details has the keys of 3.0 at every
    # version; a create and an update those of their version, without
    # the extended attributes of a show.
    assert set(latest.get('/snapshots').json()['snapshots'][0]) == base_keys
    versioned = base_keys | {'user_id', 'group_snapshot_id',
                             'consumes_quota'}
    resp = latest.put('/snapshots/%s' % created['id'],
                      json={'snapshot': {'name': 'renamed'}})
    assert set(resp.json()['snapshot']) == versioned
    assert set(sh.snapshot(latest, volume['id'])) == versioned


def test_metadata_of_a_snapshot(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = sh.snapshot(http, volume['id'], wait_for=wait,
                           metadata={'a': '1'})
    path = '/snapshots/%s/metadata' % snapshot['id']
    resp = http.post(path, json={'metadata': {'b': '2'}})
    assert resp.json() == {'metadata': {'a': '1', 'b': '2'}}
    resp = http.put(path, json={'metadata': {'c': '3'}})
    assert resp.json() == {'metadata': {'c': '3'}}
    resp = http.put(path + '/c', json={'meta': {'c': '4'}})
    assert resp.json() == {'meta': {'c': '4'}}
    assert http.get(path + '/c').json() == {'meta': {'c': '4'}}
    assert 'c' in sh.error(
        http.put(path + '/c', json={'meta': {'d': '4'}}), 400)
    assert http.delete(path + '/c').status_code == 200
    assert sh.error(http.get(path + '/c'), 404).endswith('key c.')
    assert http.get(path).json() == {'metadata': {}}


def test_reports_of_a_snapshot_being_taken(aio, wait):
    """os-update_snapshot_status, which the compute service sends of the
    snapshots it takes: only from creating (or deleting), and a failure
    gives the quota back."""
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = sh.snapshot(http, volume['id'], wait_for=wait)
    action = '/snapshots/%s/action' % snapshot['id']

    def report(body, status=202):
        resp = http.post(action, json={'os-update_snapshot_status': body})
        assert resp.status_code == status, resp.text
        return resp
    assert 'is available' in sh.error(report({'status': 'error'}, 400), 400)
    assert 'progress' in sh.error(report(
        {'status': 'error', 'progress': '80 percent'}, 400), 400)
    assert 'cannot be reported' in sh.error(
        report({'status': 'backing-up'}, 400), 400)
    resp = admin.post(action, json={'os-reset_status': {
        'status': 'creating'}})
    assert resp.status_code == 202, resp.text
    report({'status': 'creating', 'progress': '50%'})
    report({'status': 'error', 'progress': '80%'})
    shown = http.get('/snapshots/%s' % snapshot['id']).json()['snapshot']
    assert (shown['status'],
            shown['os-extended-snapshot-attributes:progress']) == (
        'error', '80%')
    assert sh.usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}
    # Its delete gives nothing back a second time.
    assert http.delete('/snapshots/%s' % snapshot['id']).status_code == 202
    sh.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert sh.usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}


def test_lists_sort_and_page_as_cinder_does(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    ids = {name: sh.snapshot(http, volume['id'], wait_for=wait,
                             name=name)['id'] for name in ('b', 'a', 'c')}
    for key in ('name', 'display_name'):
        listed = http.get('/snapshots?sort_key=%s&sort_dir=asc'
                          % key).json()['snapshots']
        assert [s['name'] for s in listed] == ['a', 'b', 'c']
    page = http.get('/snapshots?sort=name:asc&limit=2').json()
    assert [s['name'] for s in page['snapshots']] == ['a', 'b']
    assert 'marker=%s' % ids['b'] in page['snapshots_links'][0]['href']
    rest = http.get('/snapshots?sort=name:asc&marker=%s' % ids['b']).json()
    assert [s['name'] for s in rest['snapshots']] == ['c']
    missing = str(uuid.uuid4())
    assert missing in sh.error(
        http.get('/snapshots?marker=%s' % missing), 404)
    assert 'sort key' in sh.error(http.get('/snapshots?sort_key=size'), 400)
    resp = http.post('/snapshots', json={'snapshot': {'volume_id': None}})
    assert 'None' in sh.error(resp, 404)


def test_a_snapshot_left_creating_is_taken_at_restart(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    volume = http.get('/volumes/%s' % volume['id']).json()['volume']
    snapshot = {}

    def while_down():
        snapshot['id'] = sh.insert_creating(helpers.admin_context(),
                                            volume).id
    aio.restart_volume_service(before_start=while_down)
    shown = sh.wait_status(http, snapshot['id'], 'available', wait)
    assert shown['os-extended-snapshot-attributes:progress'] == '100%'
    assert os.path.exists('%s.%s' % (aio.volume_path(volume['id']),
                                     snapshot['id']))
