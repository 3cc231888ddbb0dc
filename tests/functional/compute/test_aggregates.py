"""Host aggregates over HTTP (/os-aggregates, administrators'): create,
list, show, update, delete, add_host, remove_host, set_metadata per
microversion; Nova's refusals about availability zones and their races;
the openstack CLI. The hosts are service records of their own
(compute_hosts) and servers rows on them (servers): no guest."""

import uuid

import openstack
import pytest
import sqlalchemy as sa

from tests.functional import cli
from tests.functional.compute import conftest as compute_conftest
from tests.functional import helpers
from tether.db.compute import models
from tether.db import session

ADMIN = ('admin', 'admin')


def _name(prefix='agg'):
    return '%s-%s' % (prefix, uuid.uuid4().hex[:8])


def _message(resp):
    return next(iter(resp.json().values()))['message']


@pytest.fixture
def aggregates(aio):
    """Raw HTTP as an administrator (2.41); every aggregate whose name
    starts with "agg-" or "zone-" is removed after the test, hosts and
    all, in the database (whatever the zone rules would refuse)."""
    yield aio.compute_http(*ADMIN, version='2.41')
    ctx = compute_conftest.admin_context()
    with session.COMPUTE.writing(ctx):
        ids = sa.select(models.Aggregate.id).where(sa.or_(
            models.Aggregate.name.like('agg-%'),
            models.Aggregate.name.like('zone-%')))
        for table in (models.AggregateHost, models.AggregateMetadata):
            ctx.session.execute(sa.delete(table).where(
                table.aggregate_id.in_(ids)))
        ctx.session.execute(sa.delete(models.Aggregate).where(
            models.Aggregate.id.in_(ids)))


def _create(http, name=None, zone=None):
    body = {'name': name or _name()}
    if zone is not None:
        body['availability_zone'] = zone
    resp = http.post('/os-aggregates', json={'aggregate': body})
    assert resp.status_code == 200, resp.text
    return resp.json()['aggregate']


def _action(http, aggregate, name, body):
    return http.post('/os-aggregates/%s/action' % aggregate['id'],
                     json={name: body})


def _ok(resp):
    assert resp.status_code == 200, resp.text
    return resp.json()['aggregate']


def test_story_with_the_sdk(aggregates, aio, compute_hosts):
    admin = aio.admin()
    host = compute_hosts.add()
    name = _name()
    made = admin.compute.create_aggregate(name=name,
                                          availability_zone='zone-a')
    assert (made.name, made.availability_zone) == (name, 'zone-a')
    shown = admin.compute.get_aggregate(made.id)
    assert (shown.hosts, shown.metadata) == (
        [], {'availability_zone': 'zone-a'})
    admin.compute.add_host_to_aggregate(made.id, host.host)
    admin.compute.set_aggregate_metadata(made.id, {'ssd': 'true'})
    shown = admin.compute.get_aggregate(made.id)
    assert shown.hosts == [host.host]
    assert shown.metadata == {'availability_zone': 'zone-a',
                              'ssd': 'true'}
    assert made.id in [a.id for a in admin.compute.aggregates()]
    admin.compute.update_aggregate(made.id, name=name + '-x')
    assert admin.compute.get_aggregate(made.id).name == name + '-x'
    admin.compute.remove_host_from_aggregate(made.id, host.host)
    admin.compute.delete_aggregate(made.id)
    with pytest.raises(openstack.exceptions.NotFoundException):
        admin.compute.get_aggregate(made.id)


def test_shapes_per_microversion(aggregates, aio, compute_hosts):
    old = aio.compute_http(*ADMIN, version='2.40')
    resp = old.post('/os-aggregates', json={'aggregate': {
        'name': _name(), 'availability_zone': None}})
    assert resp.status_code == 200, resp.text
    made = resp.json()['aggregate']
    # A create answers without hosts and metadata; uuid from 2.41.
    assert set(made) == {'id', 'name', 'availability_zone', 'created_at',
                         'updated_at', 'deleted', 'deleted_at'}
    assert (made['availability_zone'], made['deleted'],
            made['deleted_at']) == (None, False, None)
    shown = _ok(aggregates.get('/os-aggregates/%s' % made['id']))
    assert set(shown) == set(made) | {'hosts', 'metadata', 'uuid'}
    assert uuid.UUID(shown['uuid'])
    assert 'uuid' not in _ok(old.get('/os-aggregates/%s' % made['id']))
    listed = aggregates.get('/os-aggregates').json()['aggregates']
    assert shown in listed
    # Metadata set, then removed with null; the answer shows it.
    host = compute_hosts.add()
    got = _ok(_action(aggregates, made, 'set_metadata',
                      {'metadata': {'a': '1', 'b': '2'}}))
    assert got['metadata'] == {'a': '1', 'b': '2'} and got['updated_at']
    got = _ok(_action(aggregates, made, 'set_metadata',
                      {'metadata': {'a': None, 'c': '3'}}))
    assert got['metadata'] == {'b': '2', 'c': '3'}
    got = _ok(_action(aggregates, made, 'add_host', {'host': host.host}))
    assert got['hosts'] == [host.host]
    got = _ok(_action(aggregates, made, 'remove_host', {'host': host.host}))
    assert got['hosts'] == []
    resp = aggregates.delete('/os-aggregates/%s' % made['id'])
    assert (resp.status_code, resp.text) == (200, '')


@pytest.mark.parametrize('method, path, body, status, words', [
    ('POST', '', {'aggregate': {'name': ''}}, 400, 'name'),
    ('POST', '', {'aggregate': {'name': 'x', 'availability_zone': 'a:b'}},
     400, 'availability_zone'),
    ('POST', '', {'aggregate': {'name': 'x', 'bogus': 1}}, 400, 'bogus'),
    ('PUT', '/{id}', {'aggregate': {}}, 400, 'aggregate'),
    ('PUT', '/{id}', {'aggregate': {'name': '   '}}, 400, 'name'),
    ('PUT', '/nope', {'aggregate': {'name': 'y'}}, 400, 'integer'),
    ('GET', '/nope', None, 400, 'integer'),
    ('GET', '/99999999999', None, 404, 'could not be found'),
    ('GET', '/2147483646', None, 404, 'could not be found'),
    ('DELETE', '/nope', None, 400, 'integer'),
    ('POST', '/{id}/action', {'add_host': {'host': 'no such'}}, 400,
     'host'),
    ('POST', '/{id}/action', {'add_host': {'host': 'nosuchhost'}}, 404,
     'nosuchhost'),
    ('POST', '/{id}/action', {'remove_host': {'host': 'nosuchhost'}}, 404,
     'nosuchhost'),
    ('POST', '/{id}/action', {'set_metadata': {'metadata': {'a/b': '1'}}},
     400, 'metadata'),
    ('POST', '/{id}/action', {'set_metadata': {'metadata': {
        'availability_zone': None}}}, 400, 'empty named availability zone'),
    ('POST', '/{id}/action', {'set_metadata': {'metadata': {
        'availability_zone': ''}}}, 400, 'empty named availability zone'),
    ('PUT', '/{id}', {'aggregate': {'availability_zone': None}}, 400,
     'empty named availability zone'),
    ('POST', '/{id}/action', {'cache': []}, 400, 'no such action'),
    ('POST', '/2147483646/action', {'add_host': {'host': 'x'}}, 404,
     'could not be found'),
])
def test_refusals_change_nothing(aggregates, method, path, body, status,
                                 words):
    made = _create(aggregates, zone='zone-' + uuid.uuid4().hex[:6])
    before = _ok(aggregates.get('/os-aggregates/%s' % made['id']))
    resp = aggregates.request(method, '/os-aggregates' +
                              path.format(id=made['id']), json=body)
    assert resp.status_code == status, resp.text
    assert words.lower() in _message(resp).lower(), resp.text
    assert _ok(aggregates.get('/os-aggregates/%s' % made['id'])) == before


def test_names_and_hosts_are_unique(aggregates, compute_hosts):
    one, two = _create(aggregates), _create(aggregates)
    resp = aggregates.post('/os-aggregates', json={'aggregate': {
        'name': one['name']}})
    assert resp.status_code == 409 and one['name'] in _message(resp)
    resp = aggregates.put('/os-aggregates/%s' % two['id'], json={
        'aggregate': {'name': one['name']}})
    assert resp.status_code == 409, resp.text
    # Nova strips the spaces of a new name.
    renamed = _ok(aggregates.put('/os-aggregates/%s' % two['id'], json={
        'aggregate': {'name': ' %s-b ' % two['name']}}))
    assert renamed['name'] == two['name'] + '-b'
    host = compute_hosts.add()
    _ok(_action(aggregates, one, 'add_host', {'host': host.host}))
    resp = _action(aggregates, one, 'add_host', {'host': host.host})
    assert resp.status_code == 409 and host.host in _message(resp)
    # A host may be in several aggregates without zones.
    _ok(_action(aggregates, two, 'add_host', {'host': host.host}))
    resp = aggregates.delete('/os-aggregates/%s' % one['id'])
    assert resp.status_code == 400 and 'not empty' in _message(resp)
    # A deleted compute service leaves its aggregates, as in Nova.
    resp = aggregates.delete('/os-services/%s' % host.id)
    assert resp.status_code == 204, resp.text
    assert _ok(aggregates.get('/os-aggregates/%s' % one['id']))[
        'hosts'] == []


def test_a_host_is_in_one_zone(aggregates, compute_hosts):
    host = compute_hosts.add()
    first = _create(aggregates, zone='zone-1')
    second = _create(aggregates, zone='zone-2')
    plain = _create(aggregates)
    _ok(_action(aggregates, first, 'add_host', {'host': host.host}))
    resp = _action(aggregates, second, 'add_host', {'host': host.host})
    assert resp.status_code == 409, resp.text
    assert "already in availability zone(s) ['zone-1']" in _message(resp)
    # An aggregate without a zone takes it, and may not get another.
    _ok(_action(aggregates, plain, 'add_host', {'host': host.host}))
    resp = _action(aggregates, plain, 'set_metadata', {'metadata': {
        'availability_zone': 'zone-2'}})
    assert resp.status_code == 400, resp.text
    resp = aggregates.put('/os-aggregates/%s' % plain['id'], json={
        'aggregate': {'availability_zone': 'zone-2'}})
    assert resp.status_code == 400, resp.text
    # The same zone is no conflict.
    got = _ok(aggregates.put('/os-aggregates/%s' % plain['id'], json={
        'aggregate': {'availability_zone': 'zone-1'}}))
    assert got['availability_zone'] == 'zone-1'
    # Two aggregates of other zones taking one host at once: one does.
    other = compute_hosts.add()
    third = _create(aggregates, zone='zone-3')
    results = helpers.race([
        lambda agg=agg: _action(aggregates, agg, 'add_host',
                                {'host': other.host})
        for agg in (second, third)])
    assert sorted(r.status_code for r in results) == [200, 409]


def test_servers_never_change_zone(aggregates, compute_hosts, servers):
    busy = compute_hosts.add()
    servers.add('project-' + uuid.uuid4().hex[:8], host=busy.host)
    zoned = _create(aggregates, zone='zone-busy')
    resp = _action(aggregates, zoned, 'add_host', {'host': busy.host})
    assert resp.status_code == 409, resp.text
    assert "from 'nova' to 'zone-busy'" in _message(resp)
    assert "1 instance(s)" in _message(resp)
    # Into an aggregate without a zone it goes; the zone may not follow.
    plain = _create(aggregates)
    _ok(_action(aggregates, plain, 'add_host', {'host': busy.host}))
    resp = _action(aggregates, plain, 'set_metadata', {'metadata': {
        'availability_zone': 'zone-busy'}})
    assert resp.status_code == 400, resp.text
    assert 'contain instances' in _message(resp)
    # A zone of a host without servers may change, and then not back.
    idle = compute_hosts.add()
    _ok(_action(aggregates, zoned, 'add_host', {'host': idle.host}))
    _ok(aggregates.put('/os-aggregates/%s' % zoned['id'], json={
        'aggregate': {'availability_zone': 'zone-idle'}}))
    servers.add('project-' + uuid.uuid4().hex[:8], host=idle.host)
    resp = _action(aggregates, zoned, 'remove_host', {'host': idle.host})
    assert resp.status_code == 409, resp.text
    assert "from 'zone-idle' to 'nova'" in _message(resp)
    resp = aggregates.put('/os-aggregates/%s' % zoned['id'], json={
        'aggregate': {'availability_zone': 'zone-other'}})
    assert resp.status_code == 400, resp.text
    # Renaming the aggregate is fine.
    _ok(aggregates.put('/os-aggregates/%s' % zoned['id'], json={
        'aggregate': {'name': _name()}}))


def test_zones_of_hosts_follow_their_aggregates(aggregates, aio,
                                                compute_hosts):
    host = compute_hosts.add(zone='zone-registered')
    zoned = _create(aggregates, zone='zone-' + uuid.uuid4().hex[:6])
    _ok(_action(aggregates, zoned, 'add_host', {'host': host.host}))
    zone = zoned['availability_zone']
    names = [z['zoneName'] for z in aio.compute_http().get(
        '/os-availability-zone').json()['availabilityZoneInfo']]
    assert zone in names and 'zone-registered' not in names
    detail = {z['zoneName']: z for z in aggregates.get(
        '/os-availability-zone/detail').json()['availabilityZoneInfo']}
    assert list(detail[zone]['hosts']) == [host.host]
    services = aggregates.get('/os-services?host=%s' % host.host).json()
    assert [s['zone'] for s in services['services']] == [zone]
    # Out of the aggregate, the host is in its own zone again.
    _ok(_action(aggregates, zoned, 'remove_host', {'host': host.host}))
    services = aggregates.get('/os-services?host=%s' % host.host).json()
    assert [s['zone'] for s in services['services']] == ['zone-registered']


def test_the_openstack_cli(aggregates, aio, tmp_path, compute_hosts):
    host = compute_hosts.add()
    osc = cli.CLI(aio, tmp_path, 'admin', 'admin')
    name = _name()
    made = osc.json('aggregate', 'create', '--zone', 'zone-cli',
                    '--property', 'ssd=true', name)
    assert made['availability_zone'] == 'zone-cli'
    osc.run('aggregate', 'add', 'host', name, host.host)
    osc.run('aggregate', 'set', '--property', 'fast=yes', name)
    shown = osc.json('aggregate', 'show', name)
    assert host.host in str(shown['hosts'])
    assert 'fast' in str(shown['properties'])
    assert name in [a['Name'] for a in osc.json('aggregate', 'list')]
    osc.run('aggregate', 'remove', 'host', name, host.host)
    osc.run('aggregate', 'delete', name)
    assert name not in [a['Name'] for a in osc.json('aggregate', 'list')]
