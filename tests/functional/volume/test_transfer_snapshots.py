"""A volume with snapshots transferred: with them (they change project
with the volume, and their quota with them), and without them (3.55
no_snapshots: they stay with the giver, who deletes them; the taker
cannot delete them with the volume)."""

from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh
from tests.functional.volume import transfer_helpers as th

LATEST = th.LATEST
EMPTY = {'volumes': 0, 'gigabytes': 0, 'snapshots': 0}


def _volume_with_snapshots(http, wait, count=2):
    volume = helpers.create_volume(http, wait_for=wait)
    snapshots = [sh.snapshot(http, volume['id'], wait_for=wait)
                 for _ in range(count)]
    return volume, [s['id'] for s in snapshots]


def _owners(http, snapshot_ids):
    """{snapshot id: (project, user)} of the snapshots ``http`` sees."""
    out = {}
    for snapshot_id in snapshot_ids:
        resp = http.get('/snapshots/%s' % snapshot_id)
        if resp.status_code == 200:
            body = resp.json()['snapshot']
            out[snapshot_id] = (
                body['os-extended-snapshot-attributes:project_id'],
                body['user_id'])
    return out


def test_snapshots_go_with_their_volume(aio, wait):
    giver, taker = aio.http(version=LATEST), aio.http(version=LATEST)
    volume, snapshot_ids = _volume_with_snapshots(giver, wait)
    assert th.usage(giver.project) == {'volumes': 1, 'gigabytes': 3,
                                       'snapshots': 2}
    transfer = th.offer(giver, volume['id'])
    assert transfer['no_snapshots'] is False
    assert th.accept(taker, transfer['id'],
                     transfer['auth_key']).status_code == 202
    assert th.usage(giver.project) == EMPTY
    assert th.usage(taker.project) == {'volumes': 1, 'gigabytes': 3,
                                       'snapshots': 2}
    assert _owners(giver, snapshot_ids) == {}
    assert _owners(taker, snapshot_ids) == {
        s: (taker.project, taker.user) for s in snapshot_ids}
    # The taker deletes them all with the volume.
    resp = taker.delete('/volumes/%s?cascade=true' % volume['id'])
    assert resp.status_code == 202, resp.text
    wait(lambda: helpers.db_volume(volume['id']) is None, what='deleted')
    assert th.usage(taker.project) == EMPTY


def test_without_its_snapshots_they_stay_with_the_giver(aio, wait):
    giver, taker = aio.http(version=LATEST), aio.http(version=LATEST)
    volume, snapshot_ids = _volume_with_snapshots(giver, wait)
    transfer = th.offer(giver, volume['id'], no_snapshots=True)
    assert transfer['no_snapshots'] is True
    assert th.accept(taker, transfer['id'],
                     transfer['auth_key']).status_code == 202
    assert th.usage(giver.project) == {'volumes': 0, 'gigabytes': 2,
                                       'snapshots': 2}
    assert th.usage(taker.project) == {'volumes': 1, 'gigabytes': 1,
                                       'snapshots': 0}
    assert _owners(giver, snapshot_ids) == {
        s: (giver.project, giver.user) for s in snapshot_ids}
    assert _owners(taker, snapshot_ids) == {}

    # The taker cannot delete the giver's snapshots with the volume, nor
    # the volume under them (Cinder's answers).
    resp = taker.delete('/volumes/%s?cascade=true' % volume['id'])
    message = th.error(resp, 400)
    assert snapshot_ids[0] in message and giver.project in message
    assert 'snapshots' in th.error(
        taker.delete('/volumes/%s' % volume['id']), 400)
    assert th.volume_of(taker, volume['id'])['status'] == 'available'

    # Offered on, the volume goes without the giver's snapshots even
    # when the taker does not say no_snapshots.
    third = aio.http(version=LATEST)
    onward = th.offer(taker, volume['id'])
    assert th.accept(third, onward['id'],
                     onward['auth_key']).status_code == 202
    assert _owners(giver, snapshot_ids) == {
        s: (giver.project, giver.user) for s in snapshot_ids}
    assert th.usage(taker.project) == EMPTY
    assert th.usage(third.project) == {'volumes': 1, 'gigabytes': 1,
                                       'snapshots': 0}

    # The giver deletes its snapshots; then the volume can go.
    for snapshot_id in snapshot_ids:
        resp = giver.delete('/snapshots/%s' % snapshot_id)
        assert resp.status_code == 202, resp.text
        sh.wait_gone(giver, '/snapshots/%s' % snapshot_id, wait)
    assert th.usage(giver.project) == EMPTY
    assert third.delete('/volumes/%s' % volume['id']).status_code == 202
    wait(lambda: helpers.db_volume(volume['id']) is None, what='deleted')
    assert th.usage(third.project) == EMPTY
