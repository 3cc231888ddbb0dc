"""The volume API's samples of snapshot lists, metadata and actions
(doc/api_samples/volume/), replayed."""

import uuid

from tests.functional.api_samples import samples
from tests.functional import helpers

VERSION = '3.71'


def _snapshot(http, volume_id, wait):
    resp = http.post('/snapshots', json={'snapshot': {
        'volume_id': volume_id, 'name': 'before',
        'description': 'before the upgrade',
        'metadata': {'reason': 'upgrade'}}})
    assert resp.status_code == 202, resp.text
    snapshot = resp.json()['snapshot']
    wait(lambda: http.get('/snapshots/%s' % snapshot['id']).json()[
        'snapshot']['status'] == 'available', what='the snapshot')
    return snapshot


def test_the_snapshots_story(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = _snapshot(http, volume['id'], wait)
    story = samples.Samples('volume', http, volume_id=volume['id'],
                            snapshot_id=snapshot['id'])
    path = '/snapshots/%s' % snapshot['id']
    story.exchange('snapshots-list', 'GET', '/snapshots', version=VERSION)
    story.exchange('snapshots-list-detail', 'GET', '/snapshots/detail',
                   version=VERSION)
    update = {'snapshot': {'name': 'before-1',
                           'description': 'before the 1.1 upgrade'}}
    story.exchange('snapshot-update', 'PUT', path, update, version=VERSION)
    story.exchange('snapshot-metadata-list', 'GET', path + '/metadata',
                   version=VERSION)
    story.exchange('snapshot-metadata-create', 'POST', path + '/metadata',
                   {'metadata': {'tier': 'gold'}}, version=VERSION)
    story.exchange('snapshot-metadata-replace', 'PUT', path + '/metadata',
                   {'metadata': {'reason': 'upgrade', 'tier': 'silver'}},
                   version=VERSION)
    story.exchange('snapshot-metadata-show-key', 'GET',
                   path + '/metadata/tier', version=VERSION)
    story.exchange('snapshot-metadata-update-key', 'PUT',
                   path + '/metadata/tier', {'meta': {'tier': 'bronze'}},
                   version=VERSION)
    story.exchange('snapshot-metadata-delete-key', 'DELETE',
                   path + '/metadata/tier', version=VERSION)

    admin = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                     roles=['admin'], version=VERSION)
    actions = samples.Samples('volume', admin, volume_id=volume['id'],
                              snapshot_id=snapshot['id'])
    actions.exchange('snapshot-reset-status', 'POST', path + '/action', {
        'os-reset_status': {'status': 'error'}}, version=VERSION)
    actions.exchange('snapshot-force-delete', 'POST', path + '/action',
                     {'os-force_delete': {}}, version=VERSION)
    wait(lambda: http.get(path).status_code == 404, what='the snapshot gone')
    resp = http.delete('/volumes/%s' % volume['id'])
    assert resp.status_code == 202, resp.text


def test_the_snapshot_status_report_story(aio, wait):
    """The compute service reports the progress of a snapshot it takes
    for the volume service (with the user's token, as Nova does); the
    snapshot is being taken (``creating``), here by an administrator's
    reset."""
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = _snapshot(http, volume['id'], wait)
    path = '/snapshots/%s' % snapshot['id']
    admin = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                     roles=['admin'], version=VERSION)
    resp = admin.post(path + '/action', json={
        'os-reset_status': {'status': 'creating'}})
    assert resp.status_code == 202, resp.text
    story = samples.Samples('volume', http, volume_id=volume['id'],
                            snapshot_id=snapshot['id'])
    report = {'os-update_snapshot_status': {'status': 'available',
                                            'progress': '100%'}}
    story.exchange('snapshot-update-status', 'POST', path + '/action',
                   report, version=VERSION)
    shown = http.get(path).json()['snapshot']
    assert (shown['status'],
            shown['os-extended-snapshot-attributes:progress']) == (
        'available', '100%')
    assert http.delete(path).status_code == 202
    wait(lambda: http.get(path).status_code == 404, what='the snapshot gone')
    resp = http.delete('/volumes/%s' % volume['id'])
    assert resp.status_code == 202, resp.text
