"""The server actions lock and unlock over HTTP: who may lock and unlock,
what a lock refuses to users who are not admins (409 "Instance ... is
locked"), locked_reason (2.73), and a lock taken between an action's
check and its claim."""

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tether.compute.api import server_actions as actions_api
from tether.compute import exception
from tether.db.compute import instance as db_instances
from tether.db.compute import share_mapping as db_shares

V2_72, V2_73 = '2.72', '2.73'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _locked(resp, server_id):
    assert resp.status_code == 409, resp.text
    assert sh.message(resp) == 'Instance %s is locked.' % server_id


def _lock_state(user, server_id):
    shown = user.server(server_id, V2_73)
    return shown['locked'], shown['locked_reason']


def test_a_locked_server_refuses_its_owner_and_not_an_admin(cloud):
    user = cloud.project()
    server = user.boot()
    resp = user.action(server.id, {'lock': {'locked_reason': 'audit'}},
                       V2_73)
    assert resp.status_code == 202, resp.text
    assert resp.text == ''
    assert _lock_state(user, server.id) == (True, 'audit')
    # Before 2.73 the reason is not shown; before 2.9 nor is the lock.
    assert 'locked_reason' not in user.server(server.id, V2_72)
    assert user.server(server.id, V2_72)['locked'] is True
    assert 'locked' not in user.server(server.id, '2.8')

    for body in ({'os-stop': None}, {'reboot': {'type': 'HARD'}},
                 {'pause': None}, {'suspend': None}):
        _locked(user.action(server.id, body), server.id)
    http = user.compute()
    _locked(http.delete('/servers/%s' % server.id), server.id)
    _locked(http.post('/servers/%s/metadata' % server.id,
                      json={'metadata': {'a': 'b'}}), server.id)
    volume = user.volume()
    _locked(http.post('/servers/%s/os-volume_attachments' % server.id,
                      json={'volumeAttachment': {
                          'volumeId': volume['id']}}), server.id)
    assert user.show_volume(volume['id'])['status'] == 'available'
    assert user.server(server.id)['OS-EXT-STS:task_state'] is None

    # An admin acts on it all the same.
    admin = cloud.admin()
    assert admin.action(server.id, {'os-stop': None}).status_code == 202
    user.wait_server(server.id, 'SHUTOFF')
    # A share attach (to a stopped server) is refused before Manila is
    # asked anything; nothing is stored.
    resp = user.compute('2.97').post(
        '/servers/%s/shares' % server.id,
        json={'share': {'share_id': '1c7c9a3e-4e6e-4a4b-9d0b-2f1d5a1e8f00'}})
    _locked(resp, server.id)
    assert db_shares.get_by_instance(helpers.admin_context(),
                                     server.id) == []
    _locked(user.action(server.id, {'os-start': None}), server.id)

    assert user.action(server.id, {'unlock': None}).status_code == 202
    assert _lock_state(user, server.id) == (False, None)
    assert user.action(server.id, {'os-start': None}).status_code == 202
    user.wait_server(server.id, 'ACTIVE')
    resp = user.compute('2.1').get('/servers/%s/os-instance-actions'
                                   % server.id)
    assert [a['action'] for a in resp.json()['instanceActions']] == [
        'start', 'unlock', 'stop', 'lock', 'create']
    # The API does a lock and an unlock itself: each action has its one
    # event, api_lock or api_unlock, done (Nova's).
    for action in resp.json()['instanceActions']:
        if action['action'] in ('lock', 'unlock'):
            shown = user.instance_action(server.id, action['request_id'])
            assert [(e['event'], e['result'])
                    for e in shown['events']] == [
                ('api_%s' % action['action'], 'Success')]
            assert shown['events'][0]['finish_time'] is not None


def test_an_admins_lock_is_unlocked_by_an_admin_only(cloud):
    user = cloud.project()
    server = user.boot()
    admin = cloud.admin()
    assert admin.action(server.id, {'lock': None}).status_code == 202
    assert _lock_state(user, server.id) == (True, None)
    # The owner's lock of a server an admin locked changes nothing.
    assert user.action(server.id, {'lock': {'locked_reason': 'mine'}},
                       V2_73).status_code == 202
    assert _lock_state(user, server.id) == (True, None)
    # unlock:unlock_override is the admin's.
    resp = user.action(server.id, {'unlock': None})
    assert resp.status_code == 403, resp.text
    assert 'unlock_override' in sh.message(resp)
    assert _lock_state(user, server.id) == (True, None)
    assert admin.action(server.id, {'unlock': None}).status_code == 202
    assert _lock_state(user, server.id) == (False, None)
    # An admin may also take over and lift the owner's lock.
    assert user.action(server.id, {'lock': None}).status_code == 202
    assert admin.action(server.id, {'lock': {'locked_reason': 'ops'}},
                        V2_73).status_code == 202
    assert _lock_state(user, server.id) == (True, 'ops')
    assert user.action(server.id, {'unlock': None}).status_code == 403
    assert admin.action(server.id, {'unlock': None}).status_code == 202
    # Unlocking an unlocked server is accepted (as in Nova).
    assert user.action(server.id, {'unlock': None}).status_code == 202


def test_a_reader_may_not_lock_or_unlock(cloud):
    user = cloud.project()
    server = user.boot()
    reader = sh.Project(cloud, 'reader-' + user.user, user.project,
                        ['reader'])
    for body in ({'lock': None}, {'unlock': None}):
        resp = reader.action(server.id, body)
        assert resp.status_code == 403, resp.text
        assert 'os-lock-server' in sh.message(resp)
    assert _lock_state(user, server.id) == (False, None)


@pytest.mark.parametrize('body,word', [
    ({'lock': {'locked_reason': ''}}, 'locked_reason'),
    ({'lock': {'locked_reason': 'x' * 256}}, 'locked_reason'),
    ({'lock': {'locked_reason': 5}}, 'locked_reason'),
    ({'lock': {'reason': 'x'}}, 'reason'),
    ({'lock': 'now'}, 'lock'),
    ({'lock': None, 'unlock': None}, 'one key'),
])
def test_bad_lock_bodies_are_400_at_2_73(cloud, body, word):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    resp = user.action(server.id, body, V2_73)
    assert resp.status_code == 400, (body, resp.text)
    assert word in sh.message(resp), resp.text
    assert _lock_state(user, server.id) == (False, None)


def test_before_2_73_a_lock_takes_any_value_and_no_reason(cloud):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    resp = user.action(server.id, {'lock': {'locked_reason': 'x'}}, V2_72)
    assert resp.status_code == 202, resp.text
    assert _lock_state(user, server.id) == (True, None)


def test_a_lock_between_the_check_and_the_claim_wins(cloud):
    # The claim of an action names the lock too: a server locked after
    # the API read it (unlocked) is not stopped.
    user = cloud.project()
    server = user.boot()
    ctx = helpers.admin_context()
    read = db_instances.get(ctx, server.id)
    assert user.action(server.id, {'lock': None}).status_code == 202
    owner = helpers.user_context(user.user, user.project)
    with pytest.raises(exception.InstanceIsLocked):
        actions_api.stop(owner, read)
    assert user.server(server.id)['OS-EXT-STS:task_state'] is None
    assert user.server(server.id)['status'] == 'ACTIVE'


def test_an_unlock_keeps_a_lock_taken_meanwhile(cloud):
    # An owner's unlock checked against no lock (or its own) loses to an
    # admin's lock that came in between: 409, the admin's lock stays.
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    ctx = helpers.admin_context()
    read = db_instances.get(ctx, server.id)
    assert cloud.admin().action(server.id, {'lock': None}).status_code == 202
    owner = helpers.user_context(user.user, user.project)
    with pytest.raises(exception.InstanceLockChanged):
        actions_api.unlock(owner, read)
    assert _lock_state(user, server.id) == (True, None)
    # Two unlocks of the owner's lock: both are accepted.
    assert cloud.admin().action(server.id, {'unlock': None}
                                ).status_code == 202
    assert user.action(server.id, {'lock': None}).status_code == 202
    read = db_instances.get(ctx, server.id)
    assert user.action(server.id, {'unlock': None}).status_code == 202
    actions_api.unlock(owner, read)
    assert _lock_state(user, server.id) == (False, None)


def test_servers_listed_by_their_lock_from_2_73(cloud):
    user = cloud.project()
    locked = user.boot(wait=False, availability_zone='nowhere')
    unlocked = user.boot(wait=False, availability_zone='nowhere')
    assert user.action(locked.id, {'lock': None}).status_code == 202
    http = user.compute(V2_73)

    def listed(query, http=http):
        resp = http.get('/servers/detail?%s' % query)
        assert resp.status_code == 200, resp.text
        return sorted(s['id'] for s in resp.json()['servers'])
    assert listed('locked=true') == [locked.id]
    assert listed('locked=False') == [unlocked.id]
    assert listed('locked=0') == [unlocked.id]
    assert listed('') == sorted([locked.id, unlocked.id])
    resp = http.get('/servers?locked=maybe')
    assert resp.status_code == 400, resp.text
    assert "Unrecognized value 'maybe'" in sh.message(resp)
    # Before 2.73 the filter is not one.
    assert listed('locked=true', user.compute(V2_72)) == sorted(
        [locked.id, unlocked.id])
