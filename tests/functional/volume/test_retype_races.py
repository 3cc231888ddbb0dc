"""os-retype raced over HTTP against the real database, each request on
its own session: two retypes, a retype and an attach, a retype and a
delete. One outcome or the other, never a mix; quota exact."""

import uuid

from tests.functional import helpers
from tests.functional.volume import retype_helpers as rh

LATEST = rh.LATEST


def _session(aio, http):
    return aio.http(http.user, http.project, version=LATEST)


def test_two_retypes_at_once(aio, wait):
    """Each read the volume's type, then changes it from that type: if
    both read it before either changed it, one loses (400); if one read
    it after the other's change, both retype in turn. Never a type
    neither asked for."""
    http = aio.http(version=LATEST)
    first = rh.vtype(aio)
    targets = [rh.vtype(aio), rh.vtype(aio)]
    for _ in range(4):
        volume = helpers.create_volume(http, volume_type=first['id'],
                                       wait_for=wait)
        results = helpers.race([
            lambda t=t: rh.retype(_session(aio, http), volume['id'], t['id'])
            for t in targets])
        statuses = [r.status_code for r in results]
        final = rh.shown(http, volume['id'])['volume_type']
        if sorted(statuses) == [202, 400]:
            winner = targets[statuses.index(202)]
            assert final == winner['name']
            assert 'changed' in rh.error(results[statuses.index(400)], 400)
        else:
            assert statuses == [202, 202], [r.text for r in results]
            assert final in {t['name'] for t in targets}


def test_a_retype_that_changes_multiattach_and_an_attach(aio, wait):
    http = aio.http(version=LATEST)
    plain, multi = rh.vtype(aio), rh.vtype(aio, multiattach='<is> True')
    outcomes = set()
    for _ in range(6):
        volume = helpers.create_volume(http, volume_type=plain['id'],
                                       wait_for=wait)
        retyped, attached = helpers.race([
            lambda: rh.retype(_session(aio, http), volume['id'],
                              multi['id']),
            lambda: _session(aio, http).post('/attachments', json={
                'attachment': {'volume_uuid': volume['id'],
                               'instance_uuid': str(uuid.uuid4())}})])
        statuses = (retyped.status_code, attached.status_code)
        outcomes.add(statuses)
        shown = rh.shown(http, volume['id'])
        assert attached.status_code == 200, attached.text
        assert shown['status'] == 'reserved'
        if statuses == (202, 200):
            assert (shown['volume_type'], shown['multiattach']) == (
                multi['name'], True)
        else:
            # Reserved first: its multiattach flag stays.
            assert statuses == (400, 200), retyped.text
            assert (shown['volume_type'], shown['multiattach']) == (
                plain['name'], False)


def test_a_retype_and_a_delete(aio, wait):
    http = aio.http(version=LATEST)
    first, second = rh.vtype(aio), rh.vtype(aio)
    for _ in range(4):
        volume = helpers.create_volume(http, volume_type=first['id'],
                                       wait_for=wait, size=2)
        retyped, deleted = helpers.race([
            lambda: rh.retype(_session(aio, http), volume['id'],
                              second['id']),
            lambda: _session(aio, http).delete('/volumes/%s'
                                               % volume['id'])])
        assert deleted.status_code == 202, deleted.text
        assert retyped.status_code in (202, 400, 404), retyped.text
        wait(lambda: helpers.db_volume(volume['id']) is None, what='gone')
        assert helpers.usage(http.project) == {'volumes': (0, 0),
                                               'gigabytes': (0, 0)}
