"""Snapshots (/snapshots) over HTTP: life cycle with openstacksdk, the
files on the share, quota, errors, cascade, races and a restart.

Real qemu-img makes the chains (tether.drivers.volume.remotefs_snapshots);
nothing is mocked.
"""

import json
import os
import uuid

from tests.functional import helpers
from tests.functional import image_helpers
from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots


def _usage(project_id):
    usages = db_quotas.get_usages(helpers.admin_context(), project_id)
    return {r: usages.get(r, (0, 0))[0]
            for r in ('volumes', 'gigabytes', 'snapshots')}


def _snapshot(http, volume_id, wait_for=None, **attrs):
    resp = http.post('/snapshots', json={'snapshot': dict(
        volume_id=volume_id, **attrs)})
    assert resp.status_code == 202, resp.text
    snapshot = resp.json()['snapshot']
    if wait_for is not None:
        snapshot = _wait_status(http, snapshot['id'], 'available', wait_for)
    return snapshot


def _wait_status(http, snapshot_id, status, wait_for):
    def check():
        resp = http.get('/snapshots/%s' % snapshot_id)
        assert resp.status_code == 200, resp.text
        body = resp.json()['snapshot']
        assert body['status'] != 'error', body
        return body if body['status'] == status else None
    return wait_for(check, what='snapshot %s %s' % (snapshot_id, status))


def _wait_gone(http, path, wait_for):
    wait_for(lambda: http.get(path).status_code == 404,
             what='%s gone' % path)


def _error(resp, status):
    assert resp.status_code == status, resp.text
    return next(iter(resp.json().values()))['message']


# Life cycle -----------------------------------------------------------------

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
    assert _usage(conn.test_project) == {
        'volumes': 1, 'gigabytes': 2, 'snapshots': 1}

    conn.block_storage.delete_snapshot(snapshot)
    conn.block_storage.wait_for_delete(snapshot, interval=0.05, wait=30)
    assert not os.path.exists(overlay)
    assert not os.path.exists(base + '.info')
    assert helpers.virtual_size(base) == (helpers.GiB, 'raw')
    assert _usage(conn.test_project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}
    conn.block_storage.delete_volume(volume)
    conn.block_storage.wait_for_delete(volume, interval=0.05, wait=30)
    assert _usage(conn.test_project) == {
        'volumes': 0, 'gigabytes': 0, 'snapshots': 0}


def test_responses_follow_the_microversion(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    created = _snapshot(http, volume['id'], wait_for=wait)
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


def test_metadata_of_a_snapshot(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = _snapshot(http, volume['id'], wait_for=wait,
                         metadata={'a': '1'})
    path = '/snapshots/%s/metadata' % snapshot['id']
    resp = http.post(path, json={'metadata': {'b': '2'}})
    assert resp.json() == {'metadata': {'a': '1', 'b': '2'}}
    resp = http.put(path, json={'metadata': {'c': '3'}})
    assert resp.json() == {'metadata': {'c': '3'}}
    resp = http.put(path + '/c', json={'meta': {'c': '4'}})
    assert resp.json() == {'meta': {'c': '4'}}
    assert http.get(path + '/c').json() == {'meta': {'c': '4'}}
    assert 'c' in _error(http.put(path + '/c', json={'meta': {'d': '4'}}),
                         400)
    assert http.delete(path + '/c').status_code == 200
    assert _error(http.get(path + '/c'), 404).endswith('key c.')
    assert http.get(path).json() == {'metadata': {}}


# Errors -------------------------------------------------------------------

def test_bad_requests_name_the_problem_and_leave_nothing(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    for body, word in (
            ({'snapshot': {}}, 'volume_id'),
            ({'snapshot': {'volume_id': 'not-a-uuid'}}, 'volume_id'),
            ({'snapshot': {'volume_id': volume['id'], 'size': 1}}, 'size'),
            ({'snapshot': {'volume_id': volume['id'], 'force': 'maybe'}},
             'force'),
            ({'snapshots': {}}, 'snapshot')):
        assert word in _error(http.post('/snapshots', json=body), 400)
    unknown = str(uuid.uuid4())
    assert unknown in _error(
        http.post('/snapshots', json={'snapshot': {'volume_id': unknown}}),
        404)
    # Another project's volume is not found either.
    other = aio.http()
    assert volume['id'] in _error(other.post('/snapshots', json={
        'snapshot': {'volume_id': volume['id']}}), 404)
    assert db_snapshots.of_volume(helpers.admin_context(),
                                  volume['id']) == []
    assert _usage(http.project)['snapshots'] == 0
    for path in ('/snapshots/%s' % unknown,
                 '/snapshots/%s/metadata' % unknown):
        assert unknown in _error(http.get(path), 404)


def test_a_volume_that_is_not_available_is_refused(aio, wait):
    http = aio.http(version='3.44')
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    body = {'snapshot': {'volume_id': volume['id']}}
    taken = _snapshot(http, volume['id'], wait_for=wait)
    # Attached (an attachment connected and completed): in-use.
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id'], 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'h1', 'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    resp = http.post('/attachments/%s/action' % attachment['id'],
                     json={'os-complete': None})
    assert resp.status_code == 204, resp.text
    assert 'attached' in _error(http.post('/snapshots', json=body), 400)
    # Nor is a snapshot of an attached volume deleted (the guest's QEMU
    # holds the chain).
    assert 'attached' in _error(
        http.delete('/snapshots/%s' % taken['id']), 400)
    assert http.get('/snapshots/%s' % taken['id']).json()['snapshot'][
        'status'] == 'available'
    assert http.delete('/attachments/%s' % attachment['id']).ok
    resp = admin.post('/volumes/%s/action' % volume['id'],
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    assert 'is error' in _error(http.post('/snapshots', json=body), 400)
    assert _usage(http.project)['snapshots'] == 1


def test_over_quota_is_refused_and_counts_nothing(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    helpers.set_limits(http.project, snapshots=0)
    message = _error(http.post('/snapshots', json={
        'snapshot': {'volume_id': volume['id']}}), 413)
    assert 'snapshots' in message
    helpers.set_limits(http.project, snapshots=10, gigabytes=1)
    assert 'gigabytes' in _error(http.post('/snapshots', json={
        'snapshot': {'volume_id': volume['id']}}), 413)
    assert _usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}
    assert db_snapshots.of_volume(helpers.admin_context(),
                                  volume['id']) == []


def test_a_volume_with_snapshots_is_deleted_with_cascade_only(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    first = _snapshot(http, volume['id'], wait_for=wait)
    second = _snapshot(http, volume['id'], wait_for=wait)
    message = _error(http.delete('/volumes/%s' % volume['id']), 400)
    assert '2 snapshots' in message and 'cascade' in message
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'
    resp = http.delete('/volumes/%s?cascade=true' % volume['id'])
    assert resp.status_code == 202, resp.text
    _wait_gone(http, '/volumes/%s' % volume['id'], wait)
    for snapshot in (first, second):
        assert http.get('/snapshots/%s' % snapshot['id']).status_code == 404
    base = aio.volume_path(volume['id'])
    leftovers = [n for n in os.listdir(aio.share_dir)
                 if n.startswith(os.path.basename(base))]
    assert leftovers == []
    assert _usage(http.project) == {
        'volumes': 0, 'gigabytes': 0, 'snapshots': 0}


def test_delete_and_admin_actions(aio, wait):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = _snapshot(http, volume['id'], wait_for=wait)
    action = '/snapshots/%s/action' % snapshot['id']
    # Only administrators reset a status or force a delete.
    assert http.post(action, json={'os-reset_status': {
        'status': 'error'}}).status_code == 403
    assert http.post(action, json={'os-force_delete': {}}).status_code == 403
    assert 'status' in _error(admin.post(action, json={'os-reset_status': {
        'status': 'frozen'}}), 400)
    resp = admin.post(action, json={'os-reset_status': {
        'status': 'creating'}})
    assert resp.status_code == 202, resp.text
    # A snapshot that is creating is not deleted, except by force.
    assert 'creating' in _error(
        http.delete('/snapshots/%s' % snapshot['id']), 400)
    resp = admin.post(action, json={'os-force_delete': {}})
    assert resp.status_code == 202, resp.text
    _wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert _usage(http.project)['snapshots'] == 0


def test_reports_of_a_snapshot_being_taken(aio, wait):
    """os-update_snapshot_status, which the compute service sends of the
    snapshots it takes: only from creating (or deleting), and a failure
    gives the quota back."""
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = _snapshot(http, volume['id'], wait_for=wait)
    action = '/snapshots/%s/action' % snapshot['id']

    def report(body, status=202):
        resp = http.post(action, json={'os-update_snapshot_status': body})
        assert resp.status_code == status, resp.text
        return resp
    assert 'is available' in _error(report({'status': 'error'}, 400), 400)
    assert 'progress' in _error(report(
        {'status': 'error', 'progress': '80 percent'}, 400), 400)
    assert 'cannot be reported' in _error(report({'status': 'backing-up'},
                                                 400), 400)
    resp = admin.post(action, json={'os-reset_status': {
        'status': 'creating'}})
    assert resp.status_code == 202, resp.text
    report({'status': 'creating', 'progress': '50%'})
    report({'status': 'error', 'progress': '80%'})
    shown = http.get('/snapshots/%s' % snapshot['id']).json()['snapshot']
    assert (shown['status'],
            shown['os-extended-snapshot-attributes:progress']) == (
        'error', '80%')
    assert _usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}
    # Its delete gives nothing back a second time.
    assert http.delete('/snapshots/%s' % snapshot['id']).status_code == 202
    _wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert _usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}


def test_lists_sort_and_page_as_cinder_does(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    ids = {name: _snapshot(http, volume['id'], wait_for=wait,
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
    assert missing in _error(http.get('/snapshots?marker=%s' % missing),
                             404)
    assert 'sort key' in _error(http.get('/snapshots?sort_key=size'), 400)
    resp = http.post('/snapshots', json={'snapshot': {'volume_id': None}})
    assert 'None' in _error(resp, 404)


def test_a_volume_with_snapshots_is_not_reimaged(aio, wait):
    http = aio.http(version='3.71')
    image = image_helpers.upload(aio.admin(), b'snap' * 1024,
                                 visibility='public')
    volume = helpers.create_volume(http, wait_for=wait)
    _snapshot(http, volume['id'], wait_for=wait)
    message = _error(http.post('/volumes/%s/action' % volume['id'], json={
        'os-reimage': {'image_id': image.id}}), 400)
    assert '1 snapshots' in message
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert shown['status'] == 'available'
    assert 'volume_image_metadata' not in shown


# Races ----------------------------------------------------------------------

def test_a_snapshot_racing_the_delete_of_its_volume(aio, wait):
    """Either the snapshot is taken and the delete refused, or the volume
    is deleting and the snapshot refused: never a snapshot of a volume
    that is gone."""
    for _ in range(3):
        http = aio.http()
        volume = helpers.create_volume(http, wait_for=wait)
        snap, delete = helpers.race([
            lambda: http.post('/snapshots', json={
                'snapshot': {'volume_id': volume['id']}}),
            lambda: http.delete('/volumes/%s' % volume['id'])])
        codes = (snap.status_code, delete.status_code)
        assert codes in ((202, 400), (400, 202)), (snap.text, delete.text)
        if snap.status_code == 202:
            _wait_status(http, snap.json()['snapshot']['id'], 'available',
                         wait)
            assert _usage(http.project)['snapshots'] == 1
        else:
            _wait_gone(http, '/volumes/%s' % volume['id'], wait)
            assert _usage(http.project) == {
                'volumes': 0, 'gigabytes': 0, 'snapshots': 0}


def test_two_deletes_of_a_snapshot_one_wins(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = _snapshot(http, volume['id'], wait_for=wait)
    results = helpers.race([
        lambda: http.delete('/snapshots/%s' % snapshot['id'])] * 2)
    assert sorted(r.status_code for r in results) == [202, 400]
    _wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert _usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}


# Restart --------------------------------------------------------------------

@session.VOLUME.writer
def _insert_creating(context, volume):
    """A snapshot row left ``creating`` with no message for it (as after
    a crash between the API's insert and its cast)."""
    return db_snapshots.create_in_transaction(context, {
        'id': str(uuid.uuid4()), 'volume_id': volume['id'],
        'project_id': volume['os-vol-tenant-attr:tenant_id'],
        'status': 'creating', 'progress': '0%',
        'volume_size': volume['size'], 'use_quota': False})


def test_a_snapshot_left_creating_is_taken_at_restart(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    volume = http.get('/volumes/%s' % volume['id']).json()['volume']
    snapshot = {}

    def while_down():
        snapshot['id'] = _insert_creating(helpers.admin_context(),
                                          volume).id
    aio.restart_volume_service(before_start=while_down)
    shown = _wait_status(http, snapshot['id'], 'available', wait)
    assert shown['os-extended-snapshot-attributes:progress'] == '100%'
    assert os.path.exists('%s.%s' % (aio.volume_path(volume['id']),
                                     snapshot['id']))
