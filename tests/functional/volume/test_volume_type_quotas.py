"""The quotas of a volume type (``volumes_<type>``, ``gigabytes_<type>``,
``snapshots_<type>``), as Cinder keeps them: shown and set in a
project's quota set, counted and checked with the totals at every
create, extend, snapshot, transfer and delete, renamed with their type;
two creates racing for the last volume of a type, one wins."""

import uuid

import pytest

from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as snaps
from tests.functional.volume import transfer_helpers as th
from tether.db.volume import quota as db_quotas

LATEST = '3.71'


@pytest.fixture
def world(aio):
    """An administrator, a type of its own, and a member of a fresh
    project."""
    admin = aio.http('admin', 'admin', version=LATEST)
    name = 'tq-' + uuid.uuid4().hex[:8]
    resp = admin.post('/types', json={'volume_type': {'name': name}})
    assert resp.status_code == 200, resp.text
    http = aio.http(version=LATEST)
    http.aio = aio
    return admin, resp.json()['volume_type'], http


def _set(admin, project, **limits):
    resp = admin.put('/os-quota-sets/%s' % project,
                     json={'quota_set': limits})
    assert resp.status_code == 200, resp.text
    return resp.json()['quota_set']


def _usage(project, type_name):
    usages = db_quotas.get_usages(helpers.admin_context(), project)
    return {kind: usages.get('%s_%s' % (kind, type_name), (0, 0))
            for kind in ('volumes', 'gigabytes', 'snapshots')}


def _create(http, vtype, size=1):
    return http.post('/volumes', json={'volume': {
        'size': size, 'volume_type': vtype['name']}})


def test_shown_set_and_enforced(world, wait):
    admin, vtype, http = world
    name = vtype['name']
    shown = http.get('/os-quota-sets/%s?usage=true' % http.project).json()[
        'quota_set']
    for kind in ('volumes', 'gigabytes', 'snapshots'):
        assert shown['%s_%s' % (kind, name)] == {
            'limit': -1, 'in_use': 0, 'reserved': 0}
    updated = _set(admin, http.project, **{'volumes_%s' % name: 2,
                                           'gigabytes_%s' % name: '3'})
    assert (updated['volumes_%s' % name], updated['gigabytes_%s' % name],
            updated['snapshots_%s' % name]) == (2, 3, -1)

    first = helpers.create_volume(http, size=2, wait_for=wait,
                                  volume_type=name)
    # The type's gigabytes: 2 + 2 > 3.
    resp = _create(http, vtype, size=2)
    message = snaps.error(resp, 413)
    assert 'gigabytes_%s' % name in message
    second = helpers.create_volume(http, size=1, wait_for=wait,
                                   volume_type=name)
    assert _usage(http.project, name) == {
        'volumes': (2, 0), 'gigabytes': (3, 0), 'snapshots': (0, 0)}
    _set(admin, http.project, **{'gigabytes_%s' % name: 3 + 1})
    resp = _create(http, vtype)
    assert 'volumes_%s' % name in snaps.error(resp, 413)
    _set(admin, http.project, **{'gigabytes_%s' % name: 3})
    # Another type counts against the totals only.
    helpers.create_volume(http, size=1, wait_for=wait)
    # An extend counts the type's gigabytes too.
    resp = http.post('/volumes/%s/action' % second['id'],
                     json={'os-extend': {'new_size': 2}})
    assert 'gigabytes_%s' % name in snaps.error(resp, 413)
    _set(admin, http.project, **{'gigabytes_%s' % name: 4})
    resp = http.post('/volumes/%s/action' % second['id'],
                     json={'os-extend': {'new_size': 2}})
    assert resp.status_code == 202, resp.text
    helpers.wait_until_status(http, second['id'], 'available', wait)
    assert _usage(http.project, name)['gigabytes'] == (4, 0)

    # Snapshots: the type's count, and its gigabytes.
    _set(admin, http.project, **{'snapshots_%s' % name: 1,
                                 'gigabytes_%s' % name: 10})
    snapshot = snaps.snapshot(http, first['id'], wait_for=wait)
    resp = http.post('/snapshots', json={'snapshot': {
        'volume_id': second['id']}})
    assert 'snapshots_%s' % name in snaps.error(resp, 413)
    assert _usage(http.project, name) == {
        'volumes': (2, 0), 'gigabytes': (6, 0), 'snapshots': (1, 0)}

    # Deletes give it all back.
    assert http.delete('/snapshots/%s' % snapshot['id']).status_code == 202
    snaps.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    for volume in (first, second):
        assert http.delete('/volumes/%s' % volume['id']).status_code == 202
        snaps.wait_gone(http, '/volumes/%s' % volume['id'], wait)
    assert _usage(http.project, name) == {
        'volumes': (0, 0), 'gigabytes': (0, 0), 'snapshots': (0, 0)}


def test_a_limit_below_usage_is_refused(world, wait):
    admin, vtype, http = world
    name = vtype['name']
    helpers.create_volume(http, size=2, wait_for=wait, volume_type=name)
    resp = admin.put('/os-quota-sets/%s' % http.project, json={
        'quota_set': {'gigabytes_%s' % name: 1}})
    assert 'gigabytes_%s' % name in snaps.error(resp, 400)
    resp = admin.put('/os-quota-sets/%s' % http.project, json={
        'quota_set': {'gigabytes_nosuchtype': 1}})
    assert 'gigabytes_nosuchtype' in snaps.error(resp, 400)


def test_a_transfer_moves_the_types_usage(world, wait):
    admin, vtype, giver = world
    name = vtype['name']
    taker = giver.aio.http(version=LATEST)
    volume = helpers.create_volume(giver, size=2, wait_for=wait,
                                   volume_type=name)
    snaps.snapshot(giver, volume['id'], wait_for=wait)
    # The taker may hold one volume of the type, not two gigabytes.
    _set(admin, taker.project, **{'gigabytes_%s' % name: 1})
    transfer = th.offer(giver, volume['id'])
    resp = th.accept(taker, transfer['id'], transfer['auth_key'])
    assert 'gigabytes_%s' % name in snaps.error(resp, 413)
    _set(admin, taker.project, **{'gigabytes_%s' % name: 4})
    resp = th.accept(taker, transfer['id'], transfer['auth_key'])
    assert resp.status_code == 202, resp.text
    assert _usage(giver.project, name) == {
        'volumes': (0, 0), 'gigabytes': (0, 0), 'snapshots': (0, 0)}
    assert _usage(taker.project, name) == {
        'volumes': (1, 0), 'gigabytes': (4, 0), 'snapshots': (1, 0)}


def test_a_renamed_type_keeps_its_quotas(world, wait):
    admin, vtype, http = world
    old = vtype['name']
    _set(admin, http.project, **{'volumes_%s' % old: 5})
    helpers.create_volume(http, size=1, wait_for=wait, volume_type=old)
    new = old + '-renamed'
    resp = admin.put('/types/%s' % vtype['id'],
                     json={'volume_type': {'name': new}})
    assert resp.status_code == 200, resp.text
    shown = http.get('/os-quota-sets/%s?usage=true' % http.project).json()[
        'quota_set']
    assert 'volumes_%s' % old not in shown
    assert shown['volumes_%s' % new] == {'limit': 5, 'in_use': 1,
                                         'reserved': 0}
    assert shown['gigabytes_%s' % new]['in_use'] == 1


def test_two_creates_racing_for_the_last_volume_of_a_type(world, wait):
    admin, vtype, http = world
    name = vtype['name']
    _set(admin, http.project, **{'volumes_%s' % name: 1})
    results = helpers.race([lambda: _create(http, vtype)] * 2)
    assert sorted(r.status_code for r in results) == [202, 413], \
        [r.text for r in results]
    assert _usage(http.project, name)['volumes'] == (1, 0)
    listed = http.get('/volumes').json()['volumes']
    assert len(listed) == 1
