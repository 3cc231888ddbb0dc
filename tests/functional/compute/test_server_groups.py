"""Server groups over HTTP (/os-server-groups): create, list, show,
delete per microversion; whose they are; the server_groups quota and its
race; the openstack CLI."""

import uuid

import openstack
from oslo_config import cfg
import pytest

from tests.functional import cli
from tests.functional import helpers

CONF = cfg.CONF


def _name():
    return 'sg-' + uuid.uuid4().hex[:8]


def _message(resp):
    return next(iter(resp.json().values()))['message']


@pytest.fixture
def quota():
    """Set a [quota] limit for one test."""
    names = []

    def set_limit(name, limit):
        names.append(name)
        CONF.set_override(name, limit, group='quota')
    yield set_limit
    for name in names:
        CONF.clear_override(name, group='quota')


def test_story_create_read_delete(aio):
    user = aio.sdk()
    made = user.compute.create_server_group(name='web',
                                            policy='anti-affinity')
    assert (made.name, made.policy, made.member_ids) == (
        'web', 'anti-affinity', [])
    assert made.project_id == user.test_project
    assert made.user_id == user.test_user
    shown = user.compute.get_server_group(made.id)
    assert (shown.id, shown.name, shown.policy) == (made.id, 'web',
                                                    'anti-affinity')
    assert [g.id for g in user.compute.server_groups()] == [made.id]
    user.compute.delete_server_group(made.id)
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.compute.get_server_group(made.id)
    assert list(user.compute.server_groups()) == []
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.compute.delete_server_group(made.id, ignore_missing=False)


def test_shapes_per_microversion(aio):
    project = 'project-' + uuid.uuid4().hex[:8]
    at = {v: aio.compute_http('u1', project, version=v)
          for v in ('2.1', '2.13', '2.15', '2.64')}
    resp = at['2.1'].post('/os-server-groups', json={'server_group': {
        'name': 'old', 'policies': ['affinity']}})
    assert resp.status_code == 200, resp.text
    old = resp.json()['server_group']
    assert old == {'id': old['id'], 'name': 'old',
                   'policies': ['affinity'], 'members': [], 'metadata': {}}
    # The soft policies from 2.15.
    body = {'server_group': {'name': 's', 'policies': ['soft-affinity']}}
    resp = at['2.13'].post('/os-server-groups', json=body)
    assert resp.status_code == 400, resp.text
    resp = at['2.15'].post('/os-server-groups', json=body)
    assert resp.status_code == 200, resp.text
    soft = resp.json()['server_group']
    assert (soft['project_id'], soft['user_id']) == (project, 'u1')
    # 2.64: one policy and its rules.
    resp = at['2.64'].post('/os-server-groups', json={'server_group': {
        'name': 'new', 'policy': 'anti-affinity',
        'rules': {'max_server_per_host': '3'}}})
    assert resp.status_code == 200, resp.text
    new = resp.json()['server_group']
    assert new == {'id': new['id'], 'name': 'new',
                   'policy': 'anti-affinity',
                   'rules': {'max_server_per_host': 3}, 'members': [],
                   'project_id': project, 'user_id': 'u1'}
    shown = at['2.1'].get('/os-server-groups/%s' % new['id']).json()
    assert shown['server_group']['policies'] == ['anti-affinity']
    listed = at['2.64'].get('/os-server-groups').json()['server_groups']
    assert [g['id'] for g in listed] == [old['id'], soft['id'], new['id']]
    assert listed[0]['policy'] == 'affinity' and listed[0]['rules'] == {}


@pytest.mark.parametrize('version, body, words', [
    ('2.64', {'name': 'x', 'policy': 'affinity',
              'rules': {'max_server_per_host': 2}},
     'Only anti-affinity policy supports rules'),
    ('2.64', {'name': 'x', 'policy': 'anti-affinity',
              'rules': {'max_server_per_host': 0}}, 'max_server_per_host'),
    ('2.64', {'name': 'x', 'policy': 'anti-affinity',
              'rules': {'other': 1}}, 'other'),
    ('2.64', {'name': 'x', 'policies': ['affinity']}, 'policy'),
    ('2.63', {'name': 'x', 'policy': 'affinity'}, 'policies'),
    ('2.1', {'name': 'x', 'policies': ['affinity', 'anti-affinity']},
     'policies'),
    ('2.1', {'name': 'x', 'policies': []}, 'policies'),
    ('2.1', {'name': ' x', 'policies': ['affinity']}, 'name'),
    ('2.1', {'name': '', 'policies': ['affinity']}, 'name'),
    ('2.1', {'policies': ['affinity']}, 'name'),
    ('2.1', {'name': 'x', 'policies': ['legacy']}, 'policies'),
])
def test_bad_creates_are_400_and_make_nothing(aio, version, body, words):
    http = aio.compute_http(version=version)
    resp = http.post('/os-server-groups', json={'server_group': body})
    assert resp.status_code == 400, resp.text
    assert words in _message(resp)
    assert http.get('/os-server-groups').json()['server_groups'] == []


def test_other_projects_and_all_projects(aio):
    owner = aio.compute_http(version='2.64')
    group = owner.post('/os-server-groups', json={'server_group': {
        'name': 'mine', 'policy': 'affinity'}}).json()['server_group']
    other = aio.compute_http(version='2.64')
    for method in ('get', 'delete'):
        resp = getattr(other, method)('/os-server-groups/' + group['id'])
        assert resp.status_code == 403, resp.text
    # all_projects is an administrator's; anyone else gets their own.
    assert other.get('/os-server-groups?all_projects=True').json() == {
        'server_groups': []}
    admin = aio.compute_http('admin', 'admin', version='2.64')
    everyone = admin.get('/os-server-groups?all_projects=1').json()
    assert group['id'] in [g['id'] for g in everyone['server_groups']]
    assert group['id'] not in [g['id'] for g in admin.get(
        '/os-server-groups').json()['server_groups']]
    assert admin.get('/os-server-groups/' + group['id']).status_code == 200
    resp = owner.get('/os-server-groups/%s' % uuid.uuid4())
    assert resp.status_code == 404, resp.text
    assert 'could not be found' in _message(resp)


def test_paging_with_limit_and_offset(aio):
    http = aio.compute_http(version='2.64')
    ids = [http.post('/os-server-groups', json={'server_group': {
        'name': 'g%d' % i, 'policy': 'affinity'}}).json()['server_group'][
            'id'] for i in range(4)]

    def page(query):
        resp = http.get('/os-server-groups?' + query)
        assert resp.status_code == 200, resp.text
        return [g['id'] for g in resp.json()['server_groups']]

    assert page('limit=2') == ids[:2]
    assert page('limit=2&offset=2') == ids[2:]
    assert page('offset=3') == ids[3:]
    assert page('offset=9') == []
    assert page('limit=0') == ids
    for query in ('limit=-1', 'offset=x'):
        assert http.get('/os-server-groups?' + query).status_code == 400
    # Before 2.75 an unknown parameter is ignored, from 2.75 refused.
    assert http.get('/os-server-groups?bogus=1').status_code == 200
    strict = aio.compute_http(http.user, http.project, version='2.75')
    resp = strict.get('/os-server-groups?bogus=1')
    assert resp.status_code == 400 and 'bogus' in _message(resp)


def test_the_server_groups_quota(aio, quota):
    quota('server_groups', 2)
    user = aio.sdk()
    for name in ('one', 'two'):
        user.compute.create_server_group(name=name, policy='affinity')
    with pytest.raises(openstack.exceptions.ForbiddenException) as exc:
        user.compute.create_server_group(name='three', policy='affinity')
    assert 'too many server groups' in str(exc.value)
    # Another project has its own; a deleted group no longer counts.
    aio.sdk().compute.create_server_group(name='one', policy='affinity')
    one = next(g for g in user.compute.server_groups() if g.name == 'one')
    user.compute.delete_server_group(one)
    user.compute.create_server_group(name='three', policy='affinity')
    assert sorted(g.name for g in user.compute.server_groups()) == [
        'three', 'two']


def test_creates_racing_for_the_last_groups(aio, quota):
    quota('server_groups', 3)
    http = aio.compute_http(version='2.64')

    def creator(i):
        return lambda: http.post('/os-server-groups', json={
            'server_group': {'name': 'racer-%d' % i,
                             'policy': 'anti-affinity'}})
    results = helpers.race([creator(i) for i in range(6)])
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 200, 200, 403, 403, 403], [r.text
                                                     for r in results]
    assert len(http.get('/os-server-groups').json()['server_groups']) == 3


def test_the_openstack_cli(aio, tmp_path):
    user = aio.sdk()
    openstack_cli = cli.CLI(aio, tmp_path, user.test_user,
                            user.test_project)
    made = openstack_cli.json('server', 'group', 'create', '--policy',
                              'soft-anti-affinity', 'cli-group')
    assert made['name'] == 'cli-group'
    assert made['policy'] == 'soft-anti-affinity'
    listed = openstack_cli.json('server', 'group', 'list')
    assert [g['ID'] for g in listed] == [made['id']]
    shown = openstack_cli.json('server', 'group', 'show', 'cli-group')
    assert shown['id'] == made['id']
    openstack_cli.run('server', 'group', 'delete', made['id'])
    assert openstack_cli.json('server', 'group', 'list') == []


def test_a_projects_own_limit_and_its_usage(aio):
    # The project's quota set (not the [quota] option) limits its groups,
    # and its usage and absolute limits count them.
    http = aio.compute_http(version='2.64')
    admin = aio.compute_http('admin', 'admin', roles=['admin'],
                             version='2.64')
    resp = admin.put('/os-quota-sets/%s' % http.project,
                     json={'quota_set': {'server_groups': 2}})
    assert resp.status_code == 200, resp.text
    made = []
    for name in ('one', 'two', 'three'):
        resp = http.post('/os-server-groups', json={'server_group': {
            'name': name, 'policy': 'affinity'}})
        made.append(resp)
    assert [r.status_code for r in made] == [200, 200, 403], made[-1].text
    detail = admin.get('/os-quota-sets/%s/detail' % http.project).json()
    assert detail['quota_set']['server_groups'] == {
        'limit': 2, 'in_use': 2, 'reserved': 0}
    absolute = http.get('/limits').json()['limits']['absolute']
    assert (absolute['maxServerGroups'],
            absolute['totalServerGroupsUsed']) == (2, 2)
    group_id = made[0].json()['server_group']['id']
    assert http.delete('/os-server-groups/%s' % group_id).status_code == 204
    absolute = http.get('/limits').json()['limits']['absolute']
    assert absolute['totalServerGroupsUsed'] == 1
