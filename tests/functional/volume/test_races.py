"""Requests racing for one volume: one wins, the others get a clear 4xx.

Every race runs real threads against the real API and database; at the end
the volume is in a settled state and the quota usage is exact.
"""

import contextlib
import os
import threading

import sqlalchemy as sa

from tests.functional import helpers
from tests.functional.helpers import GiB
from tether.db import session as db_session

SETTLED = ('available', 'error', 'error_extending', 'error_deleting')


def _clients(aio, http, n):
    """``n`` sessions of the same user: each thread has its own."""
    return [aio.http(http.user, http.project) for _ in range(n)]


def _codes(results):
    return sorted(r.status_code for r in results)


@contextlib.contextmanager
def _engine_events(**listeners):
    """Listen to the writer engine's events (deliberate fault injection)."""
    engine = db_session.VOLUME.get_engine()
    for name, fn in listeners.items():
        sa.event.listen(engine, name, fn)
    try:
        yield
    finally:
        for name, fn in listeners.items():
            sa.event.remove(engine, name, fn)


def _is_claim(statement, parameters, volume_id):
    """Is this the UPDATE that claims ``available -> extending``?"""
    params = str(parameters)
    return (statement.lstrip().upper().startswith('UPDATE VOLUMES')
            and 'extending' in params and volume_id in params)


def test_concurrent_extends_one_wins(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    action = '/volumes/%s/action' % volume['id']
    results = helpers.race([
        lambda c=c: c.post(action, json={'os-extend': {'new_size': 2}})
        for c in _clients(aio, http, 10)])
    assert _codes(results) == [202] + [400] * 9, [r.text for r in results]
    for r in results:
        if r.status_code == 400:
            assert r.json()['badRequest']['message']

    shown = helpers.wait_until_status(http, volume['id'], 'available', wait)
    assert shown['size'] == 2
    assert helpers.virtual_size(aio.volume_path(volume['id']))[0] == 2 * GiB
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (2, 0)}


def test_concurrent_extends_to_different_sizes(aio, wait):
    """An extend that starts after another finished may win too; the size
    only grows, and the quota follows the final size exactly."""
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    action = '/volumes/%s/action' % volume['id']
    sizes = range(2, 12)
    results = helpers.race([
        lambda c=c, n=n: c.post(action, json={'os-extend': {'new_size': n}})
        for n, c in zip(sizes, _clients(aio, http, 10))])
    assert set(_codes(results)) <= {202, 400}, [r.text for r in results]
    won = [n for n, r in zip(sizes, results) if r.status_code == 202]
    assert won, [r.text for r in results]
    shown = helpers.wait_until_status(http, volume['id'], 'available', wait)
    assert shown['size'] == max(won)
    assert helpers.virtual_size(aio.volume_path(volume['id']))[0] == \
        max(won) * GiB
    wait(lambda: helpers.usage(http.project)['gigabytes'] == (max(won), 0),
         what='usage %sG' % max(won))


def test_concurrent_deletes_one_wins(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    path = aio.volume_path(volume['id'])
    results = helpers.race([
        lambda c=c: c.delete('/volumes/%s' % volume['id'])
        for c in _clients(aio, http, 8)])
    codes = _codes(results)
    assert codes[0] == 202 and codes.count(202) == 1, codes
    assert set(codes[1:]) <= {400, 404}, [r.text for r in results]
    wait(lambda: helpers.db_volume(volume['id']) is None, what='delete')
    assert not os.path.exists(path)
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}


def test_delete_racing_extend(aio, wait):
    """Run the race a few times: either side may win, nothing is stuck."""
    http = aio.http()
    outcomes = set()
    for _ in range(4):
        volume = helpers.create_volume(http, size=1, wait_for=wait)
        vpath = '/volumes/%s' % volume['id']
        extender, deleter = _clients(aio, http, 2)
        extend, delete = helpers.race([
            lambda: extender.post(vpath + '/action',
                                  json={'os-extend': {'new_size': 2}}),
            lambda: deleter.delete(vpath)])
        codes = (extend.status_code, delete.status_code)
        if codes == (202, 202):
            # No race after all: the extend (1 -> 2 GiB of a detached
            # volume, a few ms) was done before the delete claimed the
            # volume, which was available again. Both won, one after the
            # other; what must hold then holds below (nothing left, no
            # usage).
            outcomes.add('extend, then delete')
            wait(lambda: helpers.db_volume(volume['id']) is None,
                 what='delete')
            assert not os.path.exists(aio.volume_path(volume['id']))
        elif delete.status_code == 202:
            # The extend lost: the volume was deleting (400), or already
            # gone by the time the extend looked it up (404).
            assert extend.status_code in (400, 404), codes
            outcomes.add('delete')
            wait(lambda: helpers.db_volume(volume['id']) is None,
                 what='delete')
            assert not os.path.exists(aio.volume_path(volume['id']))
        else:
            assert codes == (202, 400), (codes, delete.text)
            assert 'extending' in delete.json()['badRequest']['message']
            outcomes.add('extend')
            shown = helpers.wait_until_status(http, volume['id'],
                                              'available', wait)
            assert shown['size'] == 2
            assert http.delete(vpath).status_code == 202
            wait(lambda: helpers.db_volume(volume['id']) is None,
                 what='delete after extend')
        assert helpers.usage(http.project) == {'volumes': (0, 0),
                                               'gigabytes': (0, 0)}
    assert outcomes


def test_extend_claim_checks_the_size_it_read(aio, wait):
    """Regression: an extend that read the size, then lost it to another.

    Deliberate fault injection at the database edge (an SQLAlchemy event on
    the engine, no tether code replaced): just before this request's claim
    ``available -> extending``, in the claim's own transaction, the volume
    grows by 1G as if another extend had finished in between. The claim
    must lose (and its transaction, the injected growth with it, roll
    back). Before the fix it won and reserved quota for the size it had
    read: the volume ended at 3G with 4G of gigabytes in use.
    """
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    fired = []

    def grow_first(conn, cursor, statement, parameters, context,
                   executemany):
        if not fired and _is_claim(statement, parameters, volume['id']):
            fired.append(statement)
            cursor.execute('UPDATE volumes SET size = size + 1 WHERE id = ?',
                           (volume['id'],))
            cursor.execute("UPDATE quota_usages SET in_use = in_use + 1 "
                           "WHERE project_id = ? AND resource = 'gigabytes'",
                           (http.project,))

    with _engine_events(before_cursor_execute=grow_first):
        resp = http.post('/volumes/%s/action' % volume['id'],
                         json={'os-extend': {'new_size': 3}})
    assert fired, 'the claim was never made'
    assert resp.status_code == 400, resp.text
    assert 'from 1G to 2G' in resp.json()['badRequest']['message']
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert (shown['status'], shown['size']) == ('available', 1)
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (1, 0)}


def test_no_writer_between_the_extend_claim_and_its_reservation(aio, wait):
    """Regression: os-reset_status between claim and reservation leaked it.

    os-extend claimed ``available -> extending`` in one transaction and
    reserved the quota in the next. A reset of the status in between found
    no reservation to roll back, the manager then ignored the extend (no
    longer extending), and the reservation stayed (until it expired a day
    later) while the volume sat in error. Deliberate fault injection at the
    database edge: right after the request's claim commits, the next write
    the same request thread makes is preceded by the reset's UPDATE.
    """
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    state = {}

    def on_execute(conn, cursor, statement, parameters, context,
                   executemany):
        if ('thread' not in state
                and _is_claim(statement, parameters, volume['id'])):
            state['thread'] = threading.get_ident()
            state['conn'] = conn
        elif (state.get('committed') and 'reset' not in state
                and threading.get_ident() == state['thread']):
            state['reset'] = statement
            cursor.execute("UPDATE volumes SET status = 'error' "
                           "WHERE id = ?", (volume['id'],))

    def on_commit(conn):
        if state.get('conn') is conn:
            state['committed'] = True

    with _engine_events(before_cursor_execute=on_execute, commit=on_commit):
        resp = http.post('/volumes/%s/action' % volume['id'],
                         json={'os-extend': {'new_size': 3}})
    assert 'thread' in state, 'the claim was never made'
    assert resp.status_code == 202, resp.text

    def settled():
        body = http.get('/volumes/%s' % volume['id']).json()['volume']
        return body if body['status'] in ('available', 'error') else None
    body = wait(settled, what='volume settled')
    expected_gb = body['size']
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (expected_gb, 0)}, \
        (body['status'], state.get('reset'))
