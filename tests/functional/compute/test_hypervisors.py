"""The hypervisors (os-hypervisors) over HTTP, per microversion."""

import json
import uuid

import openstack
import pytest

from tests.functional.compute import conftest

ADMIN = ('admin', 'admin')
BASIC = {'id', 'hypervisor_hostname', 'state', 'status'}
DETAIL = BASIC | {'hypervisor_type', 'hypervisor_version', 'host_ip',
                  'service'}
CAPACITY = {'vcpus', 'memory_mb', 'local_gb', 'vcpus_used',
            'memory_mb_used', 'local_gb_used', 'free_ram_mb',
            'free_disk_gb', 'current_workload', 'running_vms',
            'disk_available_least', 'cpu_info'}


def _get(http, path):
    resp = http.get(path)
    assert resp.status_code == 200, resp.text
    return resp.json()


def _mine(hypervisors, row):
    (hyp,) = [h for h in hypervisors
              if h['hypervisor_hostname'] == row.hypervisor_hostname]
    return hyp


def test_admin_lists_and_shows_with_openstacksdk(aio, compute_hosts):
    row = compute_hosts.add()
    admin = aio.admin()
    (hyp,) = [h for h in admin.compute.hypervisors(details=True)
              if h.name == row.hypervisor_hostname]
    assert hyp.id == row.uuid
    assert (hyp.state, hyp.status) == ('up', 'enabled')
    assert (hyp.hypervisor_type, hyp.hypervisor_version) == (
        'QEMU', 8002000)
    assert hyp.host_ip == '192.0.2.10'
    assert hyp.service_details == {'host': row.host, 'id': row.uuid,
                                   'disabled_reason': None}
    assert hyp.uptime is None
    shown = admin.compute.get_hypervisor(row.uuid)
    assert (shown.name, shown.state) == (row.hypervisor_hostname, 'up')
    names = [h.name for h in admin.compute.hypervisors()]
    assert row.hypervisor_hostname in names


def test_shapes_per_microversion(aio, compute_hosts):
    row = compute_hosts.add()
    for version, ident, extra in (
            ('2.1', row.id, CAPACITY),
            ('2.27', row.id, CAPACITY),
            ('2.28', row.id, CAPACITY),
            ('2.53', row.uuid, CAPACITY),
            ('2.87', row.uuid, CAPACITY),
            ('2.88', row.uuid, {'uptime'}),
            ('2.90', row.uuid, {'uptime'})):
        http = aio.compute_http(*ADMIN, version=version)
        basic = _mine(_get(http, '/os-hypervisors')['hypervisors'], row)
        assert set(basic) == BASIC, version
        assert basic == {'id': ident,
                         'hypervisor_hostname': row.hypervisor_hostname,
                         'state': 'up', 'status': 'enabled'}
        detail = _mine(_get(http, '/os-hypervisors/detail')['hypervisors'],
                       row)
        assert set(detail) == DETAIL | extra, version
        assert detail['service'] == {'host': row.host, 'id': ident,
                                     'disabled_reason': None}
        shown = _get(http, '/os-hypervisors/%s' % ident)['hypervisor']
        assert shown == detail, version
        if 'cpu_info' in extra:
            cpu_info = detail['cpu_info']
            if version in ('2.1', '2.27'):
                assert json.loads(cpu_info) == {'arch': 'x86_64'}
            else:
                assert cpu_info == {'arch': 'x86_64'}


def test_capacity_from_what_the_host_reported(aio, compute_hosts):
    row = compute_hosts.add()
    http = aio.compute_http(*ADMIN, version='2.87')
    hyp = _get(http, '/os-hypervisors/%s' % row.uuid)['hypervisor']
    stats = conftest.STATS
    for key in ('vcpus', 'memory_mb', 'local_gb', 'vcpus_used',
                'memory_mb_used', 'local_gb_used', 'running_vms'):
        assert hyp[key] == stats[key], key
    assert hyp['free_ram_mb'] == 8192 - 1024
    assert hyp['free_disk_gb'] == 100 - 10
    assert hyp['disk_available_least'] == 90
    assert hyp['current_workload'] == 0
    # A host that reported nothing yet shows zeros, not errors.
    bare = compute_hosts.add(stats={})
    hyp = _get(http, '/os-hypervisors/%s' % bare.uuid)['hypervisor']
    assert (hyp['memory_mb'], hyp['free_ram_mb'], hyp['cpu_info']) == (
        0, 0, {})
    assert hyp['hypervisor_type'] == 'QEMU'


def test_state_and_status(aio, compute_hosts):
    down = compute_hosts.add(down=True)
    disabled = compute_hosts.add(disabled=True)
    http = aio.compute_http(*ADMIN, version='2.53')
    hyps = _get(http, '/os-hypervisors/detail')['hypervisors']
    hyp = _mine(hyps, down)
    assert (hyp['state'], hyp['status']) == ('down', 'enabled')
    hyp = _mine(hyps, disabled)
    assert (hyp['state'], hyp['status']) == ('up', 'disabled')
    assert hyp['service']['disabled_reason'] == 'maintenance'


def test_paging_from_2_33(aio, compute_hosts):
    for _ in range(3):
        compute_hosts.add()
    http = aio.compute_http(*ADMIN, version='2.33')
    everything = [h['id'] for h in _get(http, '/os-hypervisors')
                  ['hypervisors']]
    assert len(everything) >= 3
    assert everything == sorted(everything)
    seen, path = [], '/os-hypervisors?limit=2'
    while True:
        body = _get(http, path)
        seen += [h['id'] for h in body['hypervisors']]
        if 'hypervisors_links' not in body:
            break
        (link,) = body['hypervisors_links']
        assert link['rel'] == 'next'
        path = link['href'].split('/os-hypervisors', 1)[1]
        path = '/os-hypervisors' + path
    assert seen == everything
    page = _get(http, '/os-hypervisors/detail?limit=1&marker=%s'
                % everything[0])['hypervisors']
    assert [h['id'] for h in page] == everything[1:2]
    resp = http.get('/os-hypervisors?marker=999999')
    assert resp.status_code == 400, resp.text
    assert '999999' in resp.json()['badRequest']['message']
    # Before 2.33 paging parameters are unknown, and ignored.
    old = aio.compute_http(*ADMIN, version='2.32')
    assert len(_get(old, '/os-hypervisors?limit=1')['hypervisors']) == \
        len(everything)
    # From 2.53 the marker is a UUID.
    new = aio.compute_http(*ADMIN, version='2.53')
    uuids = [h['id'] for h in _get(new, '/os-hypervisors')['hypervisors']]
    page = _get(new, '/os-hypervisors?limit=1&marker=%s' % uuids[0])
    assert [h['id'] for h in page['hypervisors']] == uuids[1:2]
    assert 'marker=%s' % uuids[1] in page['hypervisors_links'][0]['href']


def test_hostname_pattern_from_2_53(aio, compute_hosts):
    tag = uuid.uuid4().hex[:8]
    first = compute_hosts.add(host='patterned-%s-1' % tag)
    second = compute_hosts.add(host='patterned-%s-2' % tag)
    compute_hosts.add()
    http = aio.compute_http(*ADMIN, version='2.53')
    for path in ('/os-hypervisors', '/os-hypervisors/detail'):
        hyps = _get(http, path + '?hypervisor_hostname_pattern=%s' % tag)
        assert [h['id'] for h in hyps['hypervisors']] == [first.uuid,
                                                          second.uuid]
        assert 'hypervisors_links' not in hyps
    found = aio.admin().compute.hypervisors(hypervisor_hostname_pattern=tag)
    assert [h.id for h in found] == [first.uuid, second.uuid]
    resp = http.get('/os-hypervisors?hypervisor_hostname_pattern=nomatch'
                    + tag)
    assert resp.status_code == 404, resp.text
    assert 'nomatch' in resp.json()['itemNotFound']['message']
    for query in ('limit=1', 'marker=%s' % first.uuid):
        resp = http.get('/os-hypervisors?hypervisor_hostname_pattern=%s&%s'
                        % (tag, query))
        assert resp.status_code == 400, resp.text
        assert 'Paging' in resp.json()['badRequest']['message']
    # Before 2.53 the pattern is unknown, and ignored.
    old = aio.compute_http(*ADMIN, version='2.52')
    hyps = _get(old, '/os-hypervisors?hypervisor_hostname_pattern=%s'
                % tag)['hypervisors']
    assert len(hyps) >= 3


def test_with_servers(aio, compute_hosts, servers):
    busy = compute_hosts.add()
    idle = compute_hosts.add()
    project = 'project-' + uuid.uuid4().hex[:8]
    instance, _ = servers.add(project, host=busy.host)
    expected = [{'name': 'instance-' + instance.uuid,
                 'uuid': instance.uuid}]
    http = aio.compute_http(*ADMIN, version='2.53')
    hyps = _get(http, '/os-hypervisors?with_servers=true')['hypervisors']
    assert _mine(hyps, busy)['servers'] == expected
    # Before 2.75 a hypervisor without servers has no "servers" key.
    assert 'servers' not in _mine(hyps, idle)
    hyps = _get(http, '/os-hypervisors/detail?with_servers=1')[
        'hypervisors']
    assert _mine(hyps, busy)['servers'] == expected
    hyps = _get(http, '/os-hypervisors')['hypervisors']
    assert 'servers' not in _mine(hyps, busy)
    shown = _get(http, '/os-hypervisors/%s?with_servers=yes'
                 % busy.uuid)['hypervisor']
    assert shown['servers'] == expected
    new = aio.compute_http(*ADMIN, version='2.75')
    hyps = _get(new, '/os-hypervisors?with_servers=true')['hypervisors']
    assert _mine(hyps, idle)['servers'] == []
    shown = _get(new, '/os-hypervisors/%s?with_servers=true'
                 % idle.uuid)['hypervisor']
    assert shown['servers'] == []
    shown = _get(new, '/os-hypervisors/%s' % idle.uuid)['hypervisor']
    assert 'servers' not in shown


def test_show_ids_per_microversion(aio, compute_hosts):
    row = compute_hosts.add()
    old = aio.compute_http(*ADMIN, version='2.52')
    new = aio.compute_http(*ADMIN, version='2.53')
    for http, ident, status in (
            (old, row.uuid, 404), (old, 'abc', 404),
            (old, '99999999999999999999', 404), (old, '2147483647', 404),
            (new, str(row.id), 400), (new, 'abc', 400),
            (new, str(uuid.uuid4()), 404)):
        resp = http.get('/os-hypervisors/%s' % ident)
        assert resp.status_code == status, (ident, resp.text)
        assert ident in resp.text
    assert _get(old, '/os-hypervisors/%s' % row.id)['hypervisor']['id'] \
        == row.id


@pytest.mark.parametrize('version,query,field', [
    ('2.53', 'with_servers=maybe', 'with_servers'),
    ('2.53', 'hypervisor_hostname_pattern=a%2Fb',
     'hypervisor_hostname_pattern'),
    ('2.53', 'limit=-1', 'limit'),
    ('2.33', 'limit=many', 'limit'),
    ('2.53', 'foo=bar', 'foo'),
])
def test_bad_queries_name_the_parameter(aio, version, query, field):
    http = aio.compute_http(*ADMIN, version=version)
    for path in ('/os-hypervisors', '/os-hypervisors/detail'):
        resp = http.get(path + '?' + query)
        assert resp.status_code == 400, (path, resp.text)
        assert field in resp.json()['badRequest']['message']


def test_unknown_query_parameters_before_2_53_are_ignored(aio,
                                                          compute_hosts):
    row = compute_hosts.add()
    http = aio.compute_http(*ADMIN, version='2.52')
    assert _get(http, '/os-hypervisors?foo=bar&with_servers=maybe')
    assert _get(http, '/os-hypervisors/%s?with_servers=maybe' % row.id)
    resp = aio.compute_http(*ADMIN, version='2.53').get(
        '/os-hypervisors/%s?foo=1' % row.uuid)
    assert resp.status_code == 400, resp.text


def test_members_are_forbidden(aio, compute_hosts):
    row = compute_hosts.add()
    with pytest.raises(openstack.exceptions.ForbiddenException):
        list(aio.sdk().compute.hypervisors())
    http = aio.compute_http(version='2.53')
    for path in ('/os-hypervisors', '/os-hypervisors/detail',
                 '/os-hypervisors/%s' % row.uuid):
        resp = http.get(path)
        assert resp.status_code == 403, (path, resp.text)
