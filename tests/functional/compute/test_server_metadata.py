"""Server metadata over HTTP (/servers/{id}/metadata): list, show a key,
merge, replace, set a key, delete a key; the metadata_items quota;
policies; races; the openstack CLI."""

from oslo_config import cfg
import openstack
import pytest

from tests.functional import cli
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers

CONF = cfg.CONF


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def metadata_quota():
    def set_limit(limit):
        CONF.set_override('metadata_items', limit, group='quota')
    yield set_limit
    CONF.clear_override('metadata_items', group='quota')


def test_story_with_openstacksdk(cloud):
    user = cloud.project()
    server = user.boot(metadata={'a': '1'})
    compute = user.conn.compute
    assert compute.get_server_metadata(server).metadata == {'a': '1'}
    compute.set_server_metadata(server, b='2', a='one')
    assert compute.get_server_metadata(server).metadata == {
        'a': 'one', 'b': '2'}
    compute.delete_server_metadata(server, ['a'])
    assert compute.get_server_metadata(server).metadata == {'b': '2'}
    assert compute.get_server(server.id).metadata == {'b': '2'}


def test_every_route_over_http(cloud):
    user = cloud.project()
    server = user.boot()
    http = user.compute()
    base = '/servers/%s/metadata' % server.id
    assert http.get(base).json() == {'metadata': {}}
    resp = http.post(base, json={'metadata': {'k1': 'v1', 'k 2': ''}})
    assert (resp.status_code, resp.json()) == (
        200, {'metadata': {'k1': 'v1', 'k 2': ''}})
    resp = http.put(base + '/k1', json={'meta': {'k1': 'new'}})
    assert (resp.status_code, resp.json()) == (200, {'meta': {'k1': 'new'}})
    assert http.get(base + '/k1').json() == {'meta': {'k1': 'new'}}
    resp = http.put(base, json={'metadata': {'only': 'this'}})
    assert (resp.status_code, resp.json()) == (
        200, {'metadata': {'only': 'this'}})
    assert http.get(base).json() == {'metadata': {'only': 'this'}}
    resp = http.delete(base + '/only')
    assert (resp.status_code, resp.content) == (204, b'')
    assert http.get(base).json() == {'metadata': {}}
    for resp in (http.get(base + '/only'), http.delete(base + '/only')):
        assert resp.status_code == 404, resp.text
        assert resp.json()['itemNotFound']['error_code'] == (
            'compute.server.metadata_not_found')
    missing = '/servers/%s/metadata' % '00000000-0000-0000-0000-000000000000'
    assert http.get(missing).status_code == 404
    assert http.post(missing, json={'metadata': {}}).status_code == 404


@pytest.mark.parametrize('path,method,body,field', [
    ('', 'post', {'metadata': {'': 'v'}}, 'metadata'),
    ('', 'post', {'metadata': {'k' * 256: 'v'}}, 'metadata'),
    ('', 'post', {'metadata': {'a/b': 'v'}}, 'metadata'),
    ('', 'post', {'metadata': {'k': 'v' * 256}}, 'metadata/k'),
    ('', 'post', {'metadata': {'k': 1}}, 'metadata/k'),
    ('', 'post', {'metadata': {'k': None}}, 'metadata/k'),
    ('', 'post', {'metadata': []}, 'metadata'),
    ('', 'post', {'meta': {'k': 'v'}}, 'meta'),
    ('', 'put', {}, 'metadata'),
    ('', 'put', {'metadata': 'x'}, 'metadata'),
    ('/k', 'put', {'meta': {}}, 'meta'),
    ('/k', 'put', {'meta': {'k': 'v', 'l': 'w'}}, 'meta'),
    ('/k', 'put', {'metadata': {'k': 'v'}}, "'meta' is a required"),
    ('/k', 'put', {'meta': {'other': 'v'}}, 'mismatch'),
])
def test_bad_bodies_are_400_naming_the_problem(cloud, path, method, body,
                                               field):
    user = cloud.project()
    server = user.boot(metadata={'keep': 'me'})
    http = user.compute()
    base = '/servers/%s/metadata' % server.id
    resp = getattr(http, method)(base + path, json=body)
    assert resp.status_code == 400, resp.text
    assert field in sh.message(resp), resp.text
    assert http.get(base).json() == {'metadata': {'keep': 'me'}}


def test_policies(cloud):
    user = cloud.project()
    server = user.boot(metadata={'k': 'v'})
    base = '/servers/%s/metadata' % server.id
    reader = user.compute(roles=['reader'])
    assert reader.get(base).json() == {'metadata': {'k': 'v'}}
    assert reader.get(base + '/k').status_code == 200
    for method, path, body in (('post', '', {'metadata': {'x': 'y'}}),
                               ('put', '', {'metadata': {}}),
                               ('put', '/k', {'meta': {'k': 'w'}}),
                               ('delete', '/k', None)):
        resp = getattr(reader, method)(base + path, json=body)
        assert resp.status_code == 403, resp.text
    # Another project does not see the server at all.
    stranger = cloud.project().compute()
    assert stranger.get(base).status_code == 404
    assert stranger.post(base, json={'metadata': {'x': 'y'}}
                         ).status_code == 404
    admin = cloud.admin().compute()
    assert admin.post(base, json={'metadata': {'by': 'admin'}}).json() == {
        'metadata': {'k': 'v', 'by': 'admin'}}


def test_the_metadata_items_quota(cloud, metadata_quota):
    metadata_quota(2)
    user = cloud.project()
    http = user.compute()
    # At create, as in Nova.
    volume = user.volume()
    resp = http.post('/servers', json=sh.server_body(
        volume['id'], metadata={'a': '1', 'b': '2', 'c': '3'}))
    assert resp.status_code == 403, resp.text
    assert 'Maximum number of metadata items exceeds 2' in sh.message(resp)
    user.assert_free(volume['id'])
    server = user.boot(metadata={'a': '1'})
    base = '/servers/%s/metadata' % server.id
    assert http.post(base, json={'metadata': {'b': '2'}}).status_code == 200
    for method, path, body in (('post', '', {'metadata': {'c': '3'}}),
                               ('put', '', {'metadata': dict.fromkeys(
                                   'xyz', '')}),
                               ('put', '/c', {'meta': {'c': '3'}})):
        resp = getattr(http, method)(base + path, json=body)
        assert resp.status_code == 403, resp.text
        assert resp.json()['forbidden']['error_code'] == (
            'compute.server.metadata_limit_exceeded')
    # Changing a key it has, or replacing with as many, is allowed.
    assert http.put(base + '/a', json={'meta': {'a': 'A'}}).status_code == 200
    assert http.put(base, json={'metadata': {'x': '', 'y': ''}}).json() == {
        'metadata': {'x': '', 'y': ''}}
    metadata_quota(-1)
    assert http.post(base, json={'metadata': dict.fromkeys(
        'abcdef', '')}).status_code == 200


def test_concurrent_changes_lose_nothing_and_the_quota_holds(
        cloud, metadata_quota):
    user = cloud.project()
    server = user.boot()
    http = user.compute()
    base = '/servers/%s/metadata' % server.id
    results = helpers.race([
        (lambda i=i: http.post(base, json={'metadata': {'k%d' % i: 'v'}}))
        for i in range(8)])
    assert [r.status_code for r in results] == [200] * 8
    assert http.get(base).json()['metadata'] == {
        'k%d' % i: 'v' for i in range(8)}

    metadata_quota(9)
    results = helpers.race([
        (lambda i=i: http.post(base, json={'metadata': {'n%d' % i: 'v'}}))
        for i in range(2)])
    assert sorted(r.status_code for r in results) == [200, 403]
    assert len(http.get(base).json()['metadata']) == 9


def test_a_server_with_a_task_is_409(cloud):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    user.wait_server(server.id, status='ERROR')
    http = user.compute()
    base = '/servers/%s/metadata' % server.id
    resp = http.post(base, json={'metadata': {'k': 'v'}})
    assert resp.status_code == 409, resp.text
    assert 'vm_state error' in sh.message(resp)
    assert http.get(base).json() == {'metadata': {}}


def test_the_openstack_cli(cloud, tmp_path):
    user = cloud.project()
    server = user.boot(name='cli-vm')
    osc = cli.CLI(user.aio, tmp_path, user.user, user.project)
    osc.run('server', 'set', '--property', 'a=1', '--property', 'b=2',
            'cli-vm')
    assert user.conn.compute.get_server_metadata(server).metadata == {
        'a': '1', 'b': '2'}
    osc.run('server', 'unset', '--property', 'a', 'cli-vm')
    shown = osc.json('server', 'show', 'cli-vm')
    assert shown['properties'] == {'b': '2'}
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.conn.compute.delete_server_metadata(server, ['a'])
