"""Volume transfers raced over HTTP against the real database: two
accepts of one transfer, an accept and a cancel, an accept and the
delete of a snapshot that would go with the volume. Exactly one wins;
the quota of every project is exact afterwards."""

from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh
from tests.functional.volume import transfer_helpers as th

LATEST = th.LATEST
EMPTY = {'volumes': 0, 'gigabytes': 0, 'snapshots': 0}


def test_two_accepts_at_once_one_wins(aio, wait):
    for _ in range(4):
        giver = aio.http(version=LATEST)
        takers = [aio.http(version=LATEST), aio.http(version=LATEST)]
        volume = helpers.create_volume(giver, size=2, wait_for=wait)
        transfer = th.offer(giver, volume['id'])
        results = helpers.race([
            lambda t=taker: th.accept(t, transfer['id'], transfer['auth_key'])
            for taker in takers])
        statuses = [r.status_code for r in results]
        assert sorted(statuses) == [202, 404], [r.text for r in results]
        winner = takers[statuses.index(202)]
        loser = takers[statuses.index(404)]
        assert transfer['id'] in th.error(results[statuses.index(404)], 404)
        moved = th.volume_of(winner, volume['id'])
        assert (moved['status'], moved['user_id']) == ('available',
                                                       winner.user)
        assert loser.get('/volumes/%s' % volume['id']).status_code == 404
        assert th.usage(giver.project) == EMPTY
        assert th.usage(winner.project) == {'volumes': 1, 'gigabytes': 2,
                                            'snapshots': 0}
        assert th.usage(loser.project) == EMPTY


def test_an_accept_and_a_cancel_at_once(aio, wait):
    outcomes = set()
    for _ in range(4):
        giver, taker = aio.http(version=LATEST), aio.http(version=LATEST)
        volume = helpers.create_volume(giver, wait_for=wait)
        transfer = th.offer(giver, volume['id'])
        path = '/volume-transfers/%s' % transfer['id']
        accepted, cancelled = helpers.race([
            lambda: th.accept(taker, transfer['id'], transfer['auth_key']),
            lambda: giver.delete(path)])
        statuses = (accepted.status_code, cancelled.status_code)
        assert statuses in ((202, 404), (404, 202)), (accepted.text,
                                                      cancelled.text)
        outcomes.add(statuses)
        owner = taker if accepted.status_code == 202 else giver
        other = giver if owner is taker else taker
        assert th.volume_of(owner, volume['id'])['status'] == 'available'
        assert other.get('/volumes/%s' % volume['id']).status_code == 404
        assert th.usage(owner.project) == {'volumes': 1, 'gigabytes': 1,
                                           'snapshots': 0}
        assert th.usage(other.project) == EMPTY
        assert giver.get(path).status_code == 404


def test_an_accept_and_a_snapshot_delete_at_once(aio, wait):
    giver, taker = aio.http(version=LATEST), aio.http(version=LATEST)
    volume = helpers.create_volume(giver, wait_for=wait)
    snapshot = sh.snapshot(giver, volume['id'], wait_for=wait)
    transfer = th.offer(giver, volume['id'])
    path = '/snapshots/%s' % snapshot['id']
    accepted, deleted = helpers.race([
        lambda: th.accept(taker, transfer['id'], transfer['auth_key']),
        lambda: giver.delete(path)])
    statuses = (accepted.status_code, deleted.status_code)
    if statuses == (202, 404):
        # The snapshot went with the volume before the delete found it.
        assert taker.get(path).status_code == 200
        assert th.usage(taker.project) == {'volumes': 1, 'gigabytes': 2,
                                           'snapshots': 1}
        assert th.usage(giver.project) == EMPTY
        return
    # The delete held the snapshot first: the accept changed nothing.
    assert statuses == (400, 202), (accepted.text, deleted.text)
    assert snapshot['id'] in th.error(accepted, 400)
    sh.wait_gone(giver, path, wait)
    assert th.usage(giver.project) == {'volumes': 1, 'gigabytes': 1,
                                       'snapshots': 0}
    assert th.usage(taker.project) == EMPTY
    assert th.accept(taker, transfer['id'],
                     transfer['auth_key']).status_code == 202
    assert th.usage(taker.project) == {'volumes': 1, 'gigabytes': 1,
                                       'snapshots': 0}
    assert th.usage(giver.project) == EMPTY
