"""Servers in server groups: the scheduler hint ``group`` of a server
create adds the server to the group and its host is chosen by the
group's policy (tether-aio has one compute host: anti-affinity with a
second member is a scheduling failure); a deleted server leaves its
group; the server_group_members quota and the races of both; 2.71's
server_groups; the openstack CLI."""

import uuid

import openstack
from oslo_config import cfg
import pytest

from tests.functional import cli
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers

CONF = cfg.CONF


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def quota():
    names = []

    def set_limit(name, limit):
        names.append(name)
        CONF.set_override(name, limit, group='quota')
    yield set_limit
    for name in names:
        CONF.clear_override(name, group='quota')


def _group(user, policy, version='2.64', **rules):
    body = {'name': 'g-' + uuid.uuid4().hex[:6], 'policy': policy}
    if rules:
        body['rules'] = rules
    resp = user.compute(version).post('/os-server-groups',
                                      json={'server_group': body})
    assert resp.status_code == 200, resp.text
    return resp.json()['server_group']


def _members(user, group):
    resp = user.compute('2.64').get('/os-server-groups/' + group['id'])
    assert resp.status_code == 200, resp.text
    return resp.json()['server_group']['members']


def _create(user, group_id, hints_key='os:scheduler_hints', version=None,
            **server):
    """POST /servers with the hint ``group``; the response."""
    volume = user.volume()
    body = sh.server_body(volume['id'], **server)
    if group_id is not None:
        body[hints_key] = {'group': group_id}
    resp = user.compute(version).post('/servers', json=body)
    if resp.status_code == 202:
        user.track(resp.json()['server']['id'])
    return resp


def _boot(user, group_id, status='ACTIVE', **kw):
    resp = _create(user, group_id, **kw)
    assert resp.status_code == 202, resp.text
    return user.wait_server(resp.json()['server']['id'], status)


def test_anti_affinity_on_one_host(cloud):
    user = cloud.project()
    group = _group(user, 'anti-affinity')
    first = _boot(user, group['id'])
    second = _boot(user, group['id'], status='ERROR')
    fault = user.server(second.id)['fault']
    assert fault['code'] == 500
    assert fault['message'].startswith('No valid host was found.')
    assert 'anti-affinity' in fault['message']
    assert group['id'] in fault['message']
    # A server that found no host is a member all the same, as in Nova.
    assert _members(user, group) == [first.id, second.id]
    assert user.server(first.id, '2.71')['server_groups'] == [group['id']]
    assert user.server(first.id, '2.70').get('server_groups') is None
    # A deleted server leaves its group; its host is free for the next.
    user.conn.compute.delete_server(first.id)
    user.wait_gone(first.id)
    assert _members(user, group) == [second.id]
    third = _boot(user, group['id'])
    assert _members(user, group) == [second.id, third.id]


def test_affinity_and_max_server_per_host(cloud):
    user = cloud.project()
    together = _group(user, 'affinity')
    servers = [_boot(user, together['id']) for _ in range(2)]
    hosts = {user.server(s.id)['hostId'] for s in servers}
    assert len(hosts) == 1 and '' not in hosts
    # Anti-affinity with two servers per host: the third finds none.
    two = _group(user, 'anti-affinity', max_server_per_host=2)
    _boot(user, two['id'])
    _boot(user, two['id'])
    third = _boot(user, two['id'], status='ERROR')
    assert 'allows 2 of its servers per host' in user.server(third.id)[
        'fault']['message']
    # The soft policies never refuse a host.
    soft = _group(user, 'soft-anti-affinity')
    for _ in range(2):
        _boot(user, soft['id'], hints_key='OS-SCH-HNT:scheduler_hints')
    assert len(_members(user, soft)) == 2


def test_bad_hints_are_400_and_make_nothing(cloud):
    user = cloud.project()
    other = cloud.project()
    theirs = _group(other, 'affinity')
    volume = user.volume()
    for hint, words in (
            ({'group': str(uuid.uuid4())}, 'could not be found'),
            ({'group': theirs['id']}, 'could not be found'),
            ({'group': 'not-a-uuid'}, 'group'),
            ({'group': [theirs['id'], theirs['id']]}, 'group'),
            ({'group': 7}, 'group')):
        body = sh.server_body(volume['id'])
        body['os:scheduler_hints'] = hint
        resp = user.compute().post('/servers', json=body)
        assert resp.status_code == 400, (hint, resp.text)
        assert words in sh.message(resp), (hint, resp.text)
    assert list(user.conn.compute.servers()) == []
    user.assert_free(volume['id'])
    assert _members(other, theirs) == []
    # Hints tether does not apply are accepted, as Nova's default
    # filters ignore them.
    mine = _group(user, 'affinity')
    body = sh.server_body(volume['id'])
    body['os:scheduler_hints'] = {'group': [mine['id']], 'same_host': [],
                                  'foo': 'bar'}
    resp = user.compute().post('/servers', json=body)
    assert resp.status_code == 202, resp.text
    user.track(resp.json()['server']['id'])
    user.wait_server(resp.json()['server']['id'])
    assert _members(user, mine) == [resp.json()['server']['id']]


def test_the_server_group_members_quota(cloud, quota):
    quota('server_group_members', 1)
    user = cloud.project()
    group = _group(user, 'affinity')
    first = _boot(user, group['id'])
    volume = user.volume()
    body = sh.server_body(volume['id'])
    body['os:scheduler_hints'] = {'group': group['id']}
    resp = user.compute().post('/servers', json=body)
    assert resp.status_code == 403, resp.text
    assert 'too many servers in group' in sh.message(resp)
    # Nothing was made: no server, the volume free.
    assert [s.id for s in user.conn.compute.servers()] == [first.id]
    user.assert_free(volume['id'])
    user.conn.compute.delete_server(first.id)
    user.wait_gone(first.id)
    _boot(user, group['id'])


def test_creates_racing_into_groups(cloud, quota):
    user = cloud.project()
    # Two servers at once in an anti-affinity group of one host: one
    # gets it, the other none.
    group = _group(user, 'anti-affinity')
    bodies = []
    for _ in range(2):
        body = sh.server_body(user.volume()['id'])
        body['os:scheduler_hints'] = {'group': group['id']}
        bodies.append(body)
    results = helpers.race([lambda b=b: user.compute().post('/servers',
                                                            json=b)
                            for b in bodies])
    assert [r.status_code for r in results] == [202, 202]
    ids = [r.json()['server']['id'] for r in results]
    for server_id in ids:
        user.track(server_id)
    states = sorted(user.wait(
        lambda i=i: user.conn.compute.get_server(i).status
        if user.conn.compute.get_server(i).status in ('ACTIVE', 'ERROR')
        else None, timeout=sh.TIMEOUT, what='server %s built' % i)
        for i in ids)
    assert states == ['ACTIVE', 'ERROR']
    assert sorted(_members(user, group)) == sorted(ids)
    # Two creates for the last place of a group: one is refused.
    quota('server_group_members', 1)
    full = _group(user, 'soft-affinity')
    bodies = []
    for _ in range(2):
        body = sh.server_body(user.volume()['id'])
        body['os:scheduler_hints'] = {'group': full['id']}
        bodies.append(body)
    results = helpers.race([lambda b=b: user.compute().post('/servers',
                                                            json=b)
                            for b in bodies])
    assert sorted(r.status_code for r in results) == [202, 403]
    made = next(r for r in results if r.status_code == 202)
    user.track(made.json()['server']['id'])
    assert _members(user, full) == [made.json()['server']['id']]


def test_a_deleted_group_leaves_its_servers(cloud):
    user = cloud.project()
    group = _group(user, 'affinity')
    server = _boot(user, group['id'],
                   hints_key='OS-SCH-HNT:scheduler_hints')
    user.conn.compute.delete_server_group(group['id'])
    assert user.server(server.id, '2.71')['server_groups'] == []
    assert user.conn.compute.get_server(server.id).status == 'ACTIVE'


def test_the_openstack_cli_and_the_sdk(cloud, tmp_path):
    user = cloud.project()
    osc = cli.CLI(user.aio, tmp_path, user.user, user.project)
    group = osc.json('server', 'group', 'create', '--policy',
                     'anti-affinity', 'cli-web')
    volume = user.volume()
    server = osc.json('server', 'create', '--volume', volume['id'],
                      '--flavor', 'm1.nano', '--nic', 'none', '--hint',
                      'group=%s' % group['id'], '--wait', 'cli-web-1')
    user.track(server['id'])
    shown = osc.json('server', 'group', 'show', group['id'])
    assert server['id'] in str(shown.get('members', shown.get(
        'member_ids'))), shown
    # openstacksdk's scheduler_hints: the second finds no host.
    made = user.conn.compute.create_server(
        name='sdk-web-2', flavor_id='1', networks='none',
        block_device_mapping=[sh.root_bdm(user.volume()['id'])],
        scheduler_hints={'group': group['id']})
    user.track(made.id)
    failed = user.wait_server(made.id, 'ERROR')
    assert 'anti-affinity' in failed.fault['message']
    with pytest.raises(openstack.exceptions.BadRequestException):
        user.conn.compute.create_server(
            name='sdk-web-3', flavor_id='1', networks='none',
            block_device_mapping=[sh.root_bdm(user.volume()['id'])],
            scheduler_hints={'group': str(uuid.uuid4())})


def test_a_create_racing_the_group_delete(cloud):
    """Either the server joins the group before it goes (and is then in
    none), or it finds the group gone (400, nothing made)."""
    user = cloud.project()
    group = _group(user, 'affinity')
    volume = user.volume()
    body = sh.server_body(volume['id'])
    body['os:scheduler_hints'] = {'group': group['id']}
    created, deleted = helpers.race([
        lambda: user.compute().post('/servers', json=body),
        lambda: user.compute().delete('/os-server-groups/' + group['id'])])
    assert deleted.status_code == 204, deleted.text
    if created.status_code == 202:
        server_id = created.json()['server']['id']
        user.track(server_id)
        user.wait_server(server_id)
        assert user.server(server_id, '2.71')['server_groups'] == []
    else:
        assert created.status_code == 400, created.text
        assert 'could not be found' in sh.message(created)
        assert list(user.conn.compute.servers()) == []
        user.assert_free(volume['id'])
