"""Quota over HTTP: limits refuse with 413, usage stays exact on every path.

Limits are set and usage is read through the DB layer (tether.db.volume.quota);
everything else goes through the volume API.
"""

from tests import qemu_guest
from tests.functional import helpers
from tests.functional.volume import message_helpers as mh
from tests.functional.helpers import GiB


def _overlimit(resp):
    assert resp.status_code == 413, resp.text
    assert resp.headers['Retry-After'] == '0'
    return resp.json()['overLimit']['message']


def test_over_volumes_quota_leaves_nothing_behind(aio, wait):
    http = aio.http()
    helpers.set_limits(http.project, volumes=2, gigabytes=100)
    first = helpers.create_volume(http, size=1, wait_for=wait)
    helpers.create_volume(http, size=1, wait_for=wait)
    before = helpers.usage(http.project)
    assert before == {'volumes': (2, 0), 'gigabytes': (2, 0)}

    message = _overlimit(http.post('/volumes', json={'volume': {'size': 1}}))
    assert 'volumes' in message
    assert len(helpers.project_volumes(http.project)) == 2
    assert helpers.usage(http.project) == before

    # Freeing one makes room again, and usage follows.
    assert http.delete('/volumes/%s' % first['id']).status_code == 202
    wait(lambda: helpers.db_volume(first['id']) is None, what='delete')
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (1, 0)}
    helpers.create_volume(http, size=1)
    assert helpers.usage(http.project)['volumes'] == (2, 0)


def test_over_gigabytes_quota(aio):
    http = aio.http()
    helpers.set_limits(http.project, gigabytes=5)
    helpers.create_volume(http, size=3)
    message = _overlimit(http.post('/volumes', json={'volume': {'size': 3}}))
    assert 'gigabytes' in message
    assert len(helpers.project_volumes(http.project)) == 1
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (3, 0)}
    helpers.create_volume(http, size=2)
    assert helpers.usage(http.project)['gigabytes'] == (5, 0)


def test_per_volume_gigabytes(aio, wait):
    http = aio.http()
    helpers.set_limits(http.project, per_volume_gigabytes=2)
    message = _overlimit(http.post('/volumes', json={'volume': {'size': 3}}))
    assert '3G' in message and '2G' in message
    assert helpers.project_volumes(http.project) == []
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}

    volume = helpers.create_volume(http, size=2, wait_for=wait)
    resp = http.post('/volumes/%s/action' % volume['id'],
                     json={'os-extend': {'new_size': 3}})
    _overlimit(resp)
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert (shown['status'], shown['size']) == ('available', 2)
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (2, 0)}


def test_extend_over_gigabytes_quota_rolls_back(aio, wait):
    http = aio.http()
    helpers.set_limits(http.project, gigabytes=4)
    volume = helpers.create_volume(http, size=2, wait_for=wait)
    resp = http.post('/volumes/%s/action' % volume['id'],
                     json={'os-extend': {'new_size': 5}})
    assert 'gigabytes' in _overlimit(resp)
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert (shown['status'], shown['size']) == ('available', 2)
    row = helpers.db_volume(volume['id'])
    assert row.previous_status is None
    assert helpers.virtual_size(aio.volume_path(volume['id']))[0] == 2 * GiB
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (2, 0)}
    # Up to the limit still works.
    resp = http.post('/volumes/%s/action' % volume['id'],
                     json={'os-extend': {'new_size': 4}})
    assert resp.status_code == 202, resp.text
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    wait(lambda: helpers.usage(http.project)['gigabytes'] == (4, 0),
         what='extend committed')


def test_usage_is_exact_through_create_extend_delete(aio, wait):
    http = aio.http()
    a = helpers.create_volume(http, size=1, wait_for=wait)
    b = helpers.create_volume(http, size=2, wait_for=wait)
    assert helpers.usage(http.project) == {'volumes': (2, 0),
                                           'gigabytes': (3, 0)}

    resp = http.post('/volumes/%s/action' % a['id'],
                     json={'os-extend': {'new_size': 4}})
    assert resp.status_code == 202
    wait(lambda: http.get('/volumes/%s' % a['id']).json()['volume'][
        'size'] == 4, what='extend')
    assert helpers.usage(http.project) == {'volumes': (2, 0),
                                           'gigabytes': (6, 0)}

    for volume in (a, b):
        assert http.delete('/volumes/%s' % volume['id']).status_code == 202
    wait(lambda: not helpers.project_volumes(http.project), what='deletes')
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}


def test_concurrent_creates_at_the_quota_edge(aio, wait):
    http = aio.http()
    helpers.set_limits(http.project, volumes=5, gigabytes=100)
    # One HTTP session per thread: twelve requests really in flight.
    clients = [aio.http(http.user, http.project) for _ in range(12)]
    results = helpers.race([
        lambda c=c: c.post('/volumes', json={'volume': {'size': 1}})
        for c in clients])
    codes = sorted(r.status_code for r in results)
    assert codes == [202] * 5 + [413] * 7, [r.text for r in results]
    ids = {r.json()['volume']['id'] for r in results
           if r.status_code == 202}
    assert {v.id for v in helpers.project_volumes(http.project)} == ids
    assert helpers.usage(http.project) == {'volumes': (5, 0),
                                           'gigabytes': (5, 0)}
    for volume_id in ids:
        helpers.wait_until_status(http, volume_id, 'available', wait)


def test_extend_that_fails_in_the_backend_gives_its_quota_back(aio, wait):
    """A guest holds the file: qemu-img cannot resize it, the extend fails.

    The volume ends in error_extending at its old size, the reservation is
    rolled back; an admin resets it and, the guest gone, it extends.
    """
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    vpath = '/volumes/%s' % volume['id']
    path = aio.volume_path(volume['id'])

    def status():
        return http.get(vpath).json()['volume']['status']

    with qemu_guest.holding(path):
        resp = http.post(vpath + '/action',
                         json={'os-extend': {'new_size': 3}})
        assert resp.status_code == 202, resp.text
        wait(lambda: status() == 'error_extending', what='error_extending')
    assert http.get(vpath).json()['volume']['size'] == 1
    assert mh.of(http, volume['id']) == [(
        'VOLUME_VOLUME_007_010',
        'extend volume:Volume Driver failed to extend volume.')]
    assert helpers.virtual_size(path)[0] == 1 * GiB
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (1, 0)}
    # error_extending is terminal for the owner: no extend, no retry.
    resp = http.post(vpath + '/action', json={'os-extend': {'new_size': 3}})
    assert resp.status_code == 400
    assert 'error_extending' in resp.json()['badRequest']['message']

    admin = aio.http('admin', 'admin')
    resp = admin.post(vpath + '/action',
                      json={'os-reset_status': {'status': 'available'}})
    assert resp.status_code == 202
    resp = http.post(vpath + '/action', json={'os-extend': {'new_size': 3}})
    assert resp.status_code == 202, resp.text
    wait(lambda: http.get(vpath).json()['volume']['size'] == 3,
         what='extend after reset')
    assert helpers.virtual_size(path)[0] == 3 * GiB
    assert helpers.usage(http.project)['gigabytes'] == (3, 0)
