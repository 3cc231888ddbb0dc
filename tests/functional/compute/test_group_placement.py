"""Where the policy of a server group puts servers among several hosts,
and a host that changed zone after the candidates were listed: the
placement transaction (create_on_host) with the candidates and group
rule a server create gives it, on hosts that are service records of
their own (compute_hosts). No guest: the servers are rows."""

import uuid

from tests.functional.compute import conftest as compute_conftest
from tether.compute.api import server_groups as server_groups_api
from tether.compute import scheduler
from tether import context as t_context
from tether.db.compute import instance as db_instances
from tether.db.compute import instance_action as db_actions


def _group(http, policy, **rules):
    body = {'name': 'g', 'policy': policy}
    if rules:
        body['rules'] = rules
    resp = http.post('/os-server-groups', json={'server_group': body})
    assert resp.status_code == 200, resp.text
    return resp.json()['server_group']


def _place(ctx, servers, zone, group_id=None):
    """Place a server as a create does, in ``zone``; its host (None: it
    found none)."""
    instance_uuid = str(uuid.uuid4())
    values = {
        'uuid': instance_uuid, 'project_id': ctx.project_id,
        'user_id': ctx.user_id, 'display_name': 'vm', 'hostname': 'vm',
        'availability_zone': 'nova', 'pinned_availability_zone': None,
        'flavor': {'id': '1', 'name': 'm1.nano', 'memory_mb': 64,
                   'vcpus': 1, 'root_gb': 0, 'ephemeral_gb': 0, 'swap': 0,
                   'extra_specs': {}},
        'memory_mb': 64, 'vcpus': 1, 'vm_state': 'building',
        'task_state': 'scheduling', 'power_state': 0, 'locked': False,
        'metadata': {}, 'deleted': False,
    }
    rule = (server_groups_api.rule_for(ctx, group_id)
            if group_id else None)
    instance = db_instances.create_on_host(
        ctx, values, [], scheduler.candidates(ctx, zone),
        db_actions.action_values(ctx, instance_uuid, 'create'), group=rule)
    servers.uuids.append(instance_uuid)
    return instance


def test_policies_among_hosts(aio, compute_hosts, servers):
    zone = compute_conftest.unique('zone')
    hosts = {compute_hosts.add(zone=zone).host for _ in range(2)}
    project = compute_conftest.unique('project')
    ctx = t_context.RequestContext(user_id='u', project_id=project,
                                   roles=['member'])
    http = aio.compute_http('u', project, version='2.64')
    apart = _group(http, 'anti-affinity')
    placed = [_place(ctx, servers, zone, apart['id']) for _ in range(3)]
    assert {i.host for i in placed[:2]} == hosts
    assert placed[2].host is None
    # Each took its host's zone.
    assert [i.availability_zone for i in placed[:2]] == [zone, zone]
    together = _group(http, 'affinity')
    first, second = (_place(ctx, servers, zone, together['id'])
                     for _ in range(2))
    assert first.host == second.host
    spread = _group(http, 'soft-anti-affinity')
    assert len({_place(ctx, servers, zone, spread['id']).host
                for _ in range(2)}) == 2
    near = _group(http, 'soft-affinity')
    assert len({_place(ctx, servers, zone, near['id']).host
                for _ in range(3)}) == 1
    two = _group(http, 'anti-affinity', max_server_per_host=2)
    assert sorted(_place(ctx, servers, zone, two['id']).host is None
                  for _ in range(5)) == [False] * 4 + [True]
    for group in (apart, together, spread, near, two):
        assert http.delete('/os-server-groups/' + group['id']
                           ).status_code == 204


def test_a_host_that_left_the_zone_is_passed_over(aio, compute_hosts,
                                                  servers):
    zone = compute_conftest.unique('zone')
    first = compute_hosts.add(zone=zone)
    second = compute_hosts.add(zone=zone)
    ctx = t_context.RequestContext(user_id='u', project_id='p',
                                   roles=['member'])
    listed = scheduler.candidates(ctx, zone)
    assert {c.host for c in listed} == {first.host, second.host}
    admin = aio.compute_http('admin', 'admin')
    resp = admin.post('/os-aggregates', json={'aggregate': {
        'name': compute_conftest.unique('agg'),
        'availability_zone': compute_conftest.unique('zone-moved')}})
    aggregate = resp.json()['aggregate']
    try:
        resp = admin.post('/os-aggregates/%s/action' % aggregate['id'],
                          json={'add_host': {'host': listed[0].host}})
        assert resp.status_code == 200, resp.text
        instance_uuid = str(uuid.uuid4())
        instance = db_instances.create_on_host(ctx, {
            'uuid': instance_uuid, 'project_id': 'p', 'user_id': 'u',
            'display_name': 'vm', 'hostname': 'vm',
            'availability_zone': zone, 'pinned_availability_zone': zone,
            'flavor': {'id': '1', 'name': 'm1.nano', 'memory_mb': 64,
                       'vcpus': 1, 'root_gb': 0, 'ephemeral_gb': 0,
                       'swap': 0, 'extra_specs': {}},
            'memory_mb': 64, 'vcpus': 1, 'vm_state': 'building',
            'power_state': 0, 'locked': False, 'metadata': {},
            'deleted': False}, [], listed,
            db_actions.action_values(ctx, instance_uuid, 'create'))
        servers.uuids.append(instance_uuid)
        assert instance.host == listed[1].host
        assert instance.availability_zone == zone
    finally:
        admin.post('/os-aggregates/%s/action' % aggregate['id'],
                   json={'remove_host': {'host': listed[0].host}})
        admin.delete('/os-aggregates/%s' % aggregate['id'])
