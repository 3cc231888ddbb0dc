"""A server's views at every microversion, for its owner and for an
administrator: the list, the detail list, show, the answer of an update
and of a rebuild, of a server that runs, of one in ERROR and of a
deleted one. Each answer is checked against what the API declares for
its microversion ([api] response_validation = error in these tests, so a
view that strays from its declaration is a 500 naming the key); the
asserts below are the parts of Nova's shapes that a schema cannot say.
"""

import base64

import pytest

from tests.functional.compute import rebuild_helpers
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers

from tether.api.compute import versions
from tether.api import microversion
from tether.db.compute import instance as db_instances

EVERY = versions.SERVICE.versions
USER_DATA = base64.b64encode(b'#!/bin/sh\necho views\n').decode()


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _ok(resp, status=200):
    assert resp.status_code == status, resp.text
    return resp.json()


def _boot(user, name):
    """A running server that has what a server may have: metadata, a
    description, user data, access addresses, a key pair."""
    _ok(user.compute('2.2').post('/os-keypairs', json={
        'keypair': {'name': name}}), 201)
    resp = user.compute(sh.LATEST).post('/servers', json=sh.server_body(
        user.volume()['id'], name=name, metadata={'role': 'views'},
        description='every view', user_data=USER_DATA,
        accessIPv4='192.0.2.7', accessIPv6='2001:db8::7', key_name=name))
    server_id = _ok(resp, 202)['server']['id']
    user.track(server_id)
    return user.wait_server(server_id)


def test_every_view_at_every_microversion(cloud):
    user = cloud.project()
    admin = cloud.admin()
    server = _boot(user, 'views')
    lost = user.boot(wait=False, availability_zone='nowhere', name='lost')
    gone = user.boot(wait=False, availability_zone='nowhere', name='gone')
    resp = user.compute().delete('/servers/%s' % gone.id)
    assert resp.status_code == 204, resp.text
    user.wait_gone(gone.id)
    # The administrator's lists are of every project, filtered to the
    # user's: the aio of a test process holds every server its earlier
    # tests made (their deleted ones too, which changes-since lists).
    every_project = 'all_tenants=1&project_id=%s&' % user.project
    for version in EVERY:
        for who, every in ((user, ''), (admin, every_project)):
            http = who.compute(version)
            for server_id in (server.id, lost.id):
                _ok(http.get('/servers/%s' % server_id))
            _ok(http.get('/servers?%slimit=1' % every))
            _ok(http.get('/servers/detail?%slimit=1' % every))
            shown = _ok(http.get('/servers/detail?%schanges-since='
                                 '2000-01-01T00:00:00Z' % every))['servers']
            assert gone.id in {s['id'] for s in shown}
            _ok(http.put('/servers/%s' % server.id, json={
                'server': {'name': 'views-%s' % version}}))


def test_the_update_shows_server_groups_from_2_71(cloud):
    """As Nova: the update's and the rebuild's answers show server_groups
    from 2.71 as show does, not only from 2.75."""
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    for version, expected in (('2.70', False), ('2.71', True),
                              ('2.74', True)):
        changed = _ok(user.compute(version).put(
            '/servers/%s' % server.id,
            json={'server': {'name': 'groups'}}))['server']
        assert ('server_groups' in changed) is expected, version
    assert changed['server_groups'] == []


def test_progress_and_fault_as_nova_shows_them(cloud):
    """Progress only in ACTIVE, BUILD and REBUILD (not while rebooting);
    a fault's details only when it has some."""
    user = cloud.project()
    server = user.boot()
    ctx = helpers.admin_context()
    db_instances.update(ctx, server.id, {'task_state': 'rebooting'})
    shown = user.server(server.id)
    assert shown['status'] == 'REBOOT'
    assert 'progress' not in shown
    db_instances.update(ctx, server.id, {'task_state': None})
    assert user.server(server.id)['progress'] == 100

    lost = user.boot(wait=False, availability_zone='nowhere')
    admin = cloud.admin()
    fault = admin.server(lost.id)['fault']
    assert fault['details']
    db_instances.update(ctx, lost.id, {'fault': {
        'code': 500, 'message': 'No valid host was found.',
        'created': fault['created']}})
    fault = admin.server(lost.id)['fault']
    assert fault == {'code': 500, 'message': 'No valid host was found.',
                     'created': fault['created']}


def _from(version, least):
    return microversion.parse(version) >= microversion.parse(least)


# One rebuild at each microversion where the rebuild's answer changes.
REBUILD_WINDOWS = ('2.1', '2.9', '2.19', '2.26', '2.47', '2.54', '2.57',
                   '2.63', '2.71', '2.73', '2.75', '2.90', '2.96')


def test_a_rebuild_answers_at_every_window(cloud):
    """An administrator's rebuild: REBUILD with its progress; from 2.75
    the whole server, its user data as ``user_data`` and never as
    ``OS-EXT-SRV-ATTR:user_data`` (Nova's rebuild view)."""
    user = cloud.project()
    image_id = rebuild_helpers.no_os_image(user.conn)
    server = user.boot(rebuild_helpers.volume_from(user, image_id))
    admin = cloud.admin()
    for version in REBUILD_WINDOWS:
        body = {'imageRef': image_id}
        if _from(version, '2.57'):
            body['user_data'] = USER_DATA
        rebuilt = _ok(admin.action(server.id, {'rebuild': body}, version),
                      202)['server']
        assert (rebuilt['status'], rebuilt['progress']) == ('REBUILD', 0)
        assert 'OS-EXT-SRV-ATTR:user_data' not in rebuilt
        assert ('user_data' in rebuilt) is _from(version, '2.57'), version
        assert ('OS-EXT-SRV-ATTR:host' in rebuilt) is _from(version, '2.75')
        user.wait_server(server.id)
    assert rebuilt['user_data'] == USER_DATA


def test_a_listed_server_is_its_show(cloud):
    """The detail list reads its page as rows and the block devices of the
    page in one statement; each entry is the server's show, at every
    microversion, but for what Nova shows of one server only (its server
    groups, 2.71)."""
    user = cloud.project()
    running = _boot(user, 'listed')
    lost = user.boot(wait=False, availability_zone='nowhere', name='lost')
    for version in EVERY:
        http = user.compute(version)
        listed = {s['id']: s for s in _ok(
            http.get('/servers/detail'))['servers']}
        assert set(listed) == {running.id, lost.id}, version
        for server_id in (running.id, lost.id):
            shown = _ok(http.get('/servers/%s' % server_id))['server']
            shown.pop('server_groups', None)
            assert listed[server_id] == shown, version
