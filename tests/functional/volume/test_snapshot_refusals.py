"""Snapshots refused over HTTP: bad requests, volumes that are not
available, quota, the delete of a volume with snapshots, the
administrators' actions, a re-image, and races. Each refusal names the
problem and changes nothing (quota usage exact).
"""

import os
import uuid

from tests.functional import helpers
from tests.functional import image_helpers
from tests.functional.volume import snapshot_helpers as sh
from tether.db.volume import snapshot as db_snapshots


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
        assert word in sh.error(http.post('/snapshots', json=body), 400)
    unknown = str(uuid.uuid4())
    assert unknown in sh.error(
        http.post('/snapshots', json={'snapshot': {'volume_id': unknown}}),
        404)
    # Another project's volume is not found either.
    other = aio.http()
    assert volume['id'] in sh.error(other.post('/snapshots', json={
        'snapshot': {'volume_id': volume['id']}}), 404)
    assert db_snapshots.of_volume(helpers.admin_context(),
                                  volume['id']) == []
    assert sh.usage(http.project)['snapshots'] == 0
    for path in ('/snapshots/%s' % unknown,
                 '/snapshots/%s/metadata' % unknown):
        assert unknown in sh.error(http.get(path), 404)


def test_a_volume_that_is_not_available_is_refused(aio, wait):
    http = aio.http(version='3.44')
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    body = {'snapshot': {'volume_id': volume['id']}}
    sh.snapshot(http, volume['id'], wait_for=wait)
    # Attached (an attachment connected and completed): in-use.
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id'], 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'h1', 'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    resp = http.post('/attachments/%s/action' % attachment['id'],
                     json={'os-complete': None})
    assert resp.status_code == 204, resp.text
    # Below 3.66 a snapshot of an in-use volume needs "force": true; from
    # 3.66 it needs none, and a false force is refused (Cinder's words).
    assert '"force": true' in sh.error(
        http.post('/snapshots', json=body), 400)
    assert 'force' in sh.error(http.post(
        '/snapshots', json={'snapshot': dict(body['snapshot'],
                                             force=False)},
        headers={'OpenStack-API-Version': 'volume 3.66'}), 400)
    assert 'flag is invalid' in sh.error(http.post(
        '/snapshots', json={'snapshot': dict(body['snapshot'],
                                             force='false')},
        headers={'OpenStack-API-Version': 'volume 3.71'}), 400)
    assert http.delete('/attachments/%s' % attachment['id']).ok
    resp = admin.post('/volumes/%s/action' % volume['id'],
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    assert 'is error' in sh.error(http.post('/snapshots', json=body), 400)
    assert sh.usage(http.project)['snapshots'] == 1


def test_over_quota_is_refused_and_counts_nothing(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    helpers.set_limits(http.project, snapshots=0)
    message = sh.error(http.post('/snapshots', json={
        'snapshot': {'volume_id': volume['id']}}), 413)
    assert 'snapshots' in message
    helpers.set_limits(http.project, snapshots=10, gigabytes=1)
    assert 'gigabytes' in sh.error(http.post('/snapshots', json={
        'snapshot': {'volume_id': volume['id']}}), 413)
    assert sh.usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}
    assert db_snapshots.of_volume(helpers.admin_context(),
                                  volume['id']) == []


def test_a_volume_with_snapshots_is_deleted_with_cascade_only(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    first = sh.snapshot(http, volume['id'], wait_for=wait)
    second = sh.snapshot(http, volume['id'], wait_for=wait)
    message = sh.error(http.delete('/volumes/%s' % volume['id']), 400)
    assert '2 snapshots' in message and 'cascade' in message
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'
    resp = http.delete('/volumes/%s?cascade=true' % volume['id'])
    assert resp.status_code == 202, resp.text
    sh.wait_gone(http, '/volumes/%s' % volume['id'], wait)
    for snapshot in (first, second):
        assert http.get('/snapshots/%s' % snapshot['id']).status_code == 404
    base = aio.volume_path(volume['id'])
    leftovers = [n for n in os.listdir(aio.share_dir)
                 if n.startswith(os.path.basename(base))]
    assert leftovers == []
    assert sh.usage(http.project) == {
        'volumes': 0, 'gigabytes': 0, 'snapshots': 0}


def test_delete_and_admin_actions(aio, wait):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = sh.snapshot(http, volume['id'], wait_for=wait)
    action = '/snapshots/%s/action' % snapshot['id']
    # Only administrators reset a status or force a delete.
    assert http.post(action, json={'os-reset_status': {
        'status': 'error'}}).status_code == 403
    assert http.post(action, json={'os-force_delete': {}}).status_code == 403
    assert 'status' in sh.error(admin.post(action, json={'os-reset_status': {
        'status': 'frozen'}}), 400)
    resp = admin.post(action, json={'os-reset_status': {
        'status': 'creating'}})
    assert resp.status_code == 202, resp.text
    # A snapshot that is creating is not deleted, except by force.
    assert 'creating' in sh.error(
        http.delete('/snapshots/%s' % snapshot['id']), 400)
    resp = admin.post(action, json={'os-force_delete': {}})
    assert resp.status_code == 202, resp.text
    sh.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert sh.usage(http.project)['snapshots'] == 0


def test_a_volume_with_snapshots_is_not_reimaged(aio, wait):
    http = aio.http(version='3.71')
    image = image_helpers.upload(aio.admin(), b'snap' * 1024,
                                 visibility='public')
    volume = helpers.create_volume(http, wait_for=wait)
    sh.snapshot(http, volume['id'], wait_for=wait)
    message = sh.error(http.post('/volumes/%s/action' % volume['id'], json={
        'os-reimage': {'image_id': image.id}}), 400)
    assert '1 snapshots' in message
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert shown['status'] == 'available'
    assert 'volume_image_metadata' not in shown


def test_a_snapshot_racing_the_delete_of_its_volume(aio, wait):
    """Either the snapshot is taken and the delete refused, or the volume
    is deleting (or gone) and the snapshot refused: never a snapshot of
    a volume that is gone."""
    for _ in range(3):
        http = aio.http()
        volume = helpers.create_volume(http, wait_for=wait)
        snap, delete = helpers.race([
            lambda: http.post('/snapshots', json={
                'snapshot': {'volume_id': volume['id']}}),
            lambda: http.delete('/volumes/%s' % volume['id'])])
        codes = (snap.status_code, delete.status_code)
        # (404: the volume was deleted before the create looked.)
        assert codes in ((202, 400), (400, 202), (404, 202)), (
            snap.text, delete.text)
        if snap.status_code == 202:
            sh.wait_status(http, snap.json()['snapshot']['id'],
                           'available', wait)
            assert sh.usage(http.project)['snapshots'] == 1
        else:
            sh.wait_gone(http, '/volumes/%s' % volume['id'], wait)
            assert sh.usage(http.project) == {
                'volumes': 0, 'gigabytes': 0, 'snapshots': 0}


def test_two_deletes_of_a_snapshot_one_wins(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = sh.snapshot(http, volume['id'], wait_for=wait)
    results = helpers.race([
        lambda: http.delete('/snapshots/%s' % snapshot['id'])] * 2)
    assert sorted(r.status_code for r in results) == [202, 400]
    sh.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert sh.usage(http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}
