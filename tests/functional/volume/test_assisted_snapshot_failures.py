"""Snapshots of attached volumes that the compute host does not take or
merge: the snapshot ends in error (its quota given back) or
error_deleting, the volume's files are as before, and what is asked
again once the volume is detached works.

The volume is attached through the attachments API to a server the
compute API does not have (as a consumer outside Nova would), so the
compute API refuses the assisted snapshot (400, no server has the
volume): real HTTP between the two services, no guest.
"""

import json
import os
import uuid

from tests.functional import helpers
from tests.functional.volume import message_helpers as mh
from tests.functional.volume import snapshot_helpers as sh

VERSION = '3.66'


def _attach(http, volume_id):
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume_id, 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'h1', 'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    resp = http.post('/attachments/%s/action' % attachment['id'],
                     json={'os-complete': None})
    assert resp.status_code == 204, resp.text
    return attachment['id']


def _files(aio, volume_id):
    base = os.path.basename(aio.volume_path(volume_id))
    return sorted(n for n in os.listdir(aio.share_dir)
                  if n == base or n.startswith(base + '.'))


def _wait_for_status(http, snapshot_id, status, wait):
    def check():
        body = http.get('/snapshots/%s' % snapshot_id).json()['snapshot']
        return body if body['status'] == status else None
    return wait(check, what='snapshot %s %s' % (snapshot_id, status))


def test_a_snapshot_the_compute_host_refuses_is_error(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    _attach(http, volume['id'])
    resp = http.post('/snapshots', json={'snapshot': {
        'volume_id': volume['id']}})
    assert resp.status_code == 202, resp.text
    snapshot = _wait_for_status(http, resp.json()['snapshot']['id'],
                                'error', wait)
    # Its quota is given back; the overlay made for it is gone.
    assert sh.usage(http.project)['snapshots'] == 0
    assert mh.of(http, snapshot['id']) == [(
        'VOLUME_VOLUME_SNAPSHOT_009_013',
        'create snapshot:Snapshot failed to create.')]
    assert _files(aio, volume['id']) == [
        os.path.basename(aio.volume_path(volume['id']))]
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'in-use'
    resp = http.delete('/snapshots/%s' % snapshot['id'])
    assert resp.status_code == 202, resp.text
    sh.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert sh.usage(http.project)['snapshots'] == 0


def test_a_delete_the_compute_host_refuses_is_error_deleting(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    taken = sh.snapshot(http, volume['id'], wait_for=wait)
    before = _files(aio, volume['id'])
    info_path = aio.volume_path(volume['id']) + '.info'
    with open(info_path) as f:
        info = json.load(f)
    attachment_id = _attach(http, volume['id'])

    resp = http.delete('/snapshots/%s' % taken['id'])
    assert resp.status_code == 202, resp.text
    _wait_for_status(http, taken['id'], 'error_deleting', wait)
    # The files and the info file are as they were (the plan of the
    # merge is kept beside them for the next try).
    assert [n for n in _files(aio, volume['id'])
            if not n.endswith('.merge')] == before
    with open(info_path) as f:
        assert json.load(f) == info
    assert sh.usage(http.project)['snapshots'] == 1

    # Detached, the delete asked again is the backend's alone.
    assert http.delete('/attachments/%s' % attachment_id).ok
    resp = http.delete('/snapshots/%s' % taken['id'])
    assert resp.status_code == 202, resp.text
    sh.wait_gone(http, '/snapshots/%s' % taken['id'], wait)
    assert _files(aio, volume['id']) == [
        os.path.basename(aio.volume_path(volume['id']))]
    assert sh.usage(http.project)['snapshots'] == 0
