"""The compute services (os-services) over HTTP: list, update, delete."""

import uuid

import openstack
import pytest

ADMIN = ('admin', 'admin')
BASE = {'id', 'binary', 'host', 'zone', 'status', 'state', 'updated_at',
        'disabled_reason'}


def _listed(http, host):
    resp = http.get('/os-services?host=%s' % host)
    assert resp.status_code == 200, resp.text
    (svc,) = resp.json()['services']
    return svc


def test_story_list_disable_enable_force_down_delete(aio, compute_hosts):
    row = compute_hosts.add(zone='zone-a')
    admin = aio.admin()
    (svc,) = [s for s in admin.compute.services() if s.host == row.host]
    assert svc.id == row.uuid
    assert svc.binary == 'tether-compute'
    assert svc.availability_zone == 'zone-a'
    assert (svc.status, svc.state) == ('enabled', 'up')
    assert svc.is_forced_down is False
    assert svc.disabled_reason is None
    assert svc.updated_at

    svc = admin.compute.disable_service(svc, disabled_reason='repairs')
    assert (svc.status, svc.disabled_reason) == ('disabled', 'repairs')
    http = aio.compute_http(*ADMIN, version='2.53')
    listed = _listed(http, row.host)
    assert (listed['status'], listed['disabled_reason']) == (
        'disabled', 'repairs')

    svc = admin.compute.enable_service(svc)
    assert (svc.status, svc.disabled_reason) == ('enabled', None)

    admin.compute.update_service_forced_down(svc, forced=True)
    listed = _listed(http, row.host)
    assert (listed['forced_down'], listed['state']) == (True, 'down')
    admin.compute.update_service_forced_down(svc, forced=False)
    assert _listed(http, row.host)['state'] == 'up'

    admin.compute.delete_service(svc, ignore_missing=False)
    assert [s for s in admin.compute.services() if s.host == row.host] == []
    resp = http.delete('/os-services/%s' % row.uuid)
    assert resp.status_code == 404, resp.text
    assert row.uuid in resp.json()['itemNotFound']['message']


def test_wire_format_per_version(aio, compute_hosts):
    row = compute_hosts.add()
    for version, keys, ident in (
            ('2.1', BASE, row.id),
            ('2.11', BASE | {'forced_down'}, row.id),
            ('2.52', BASE | {'forced_down'}, row.id),
            ('2.53', BASE | {'forced_down'}, row.uuid),
            ('2.90', BASE | {'forced_down'}, row.uuid)):
        svc = _listed(aio.compute_http(*ADMIN, version=version), row.host)
        assert set(svc) == keys, version
        assert svc['id'] == ident, version
        assert svc['zone'] == 'nova'
        assert svc['updated_at'].count(':') == 2


def test_state_and_filters(aio, compute_hosts):
    down = compute_hosts.add(down=True)
    disabled = compute_hosts.add(disabled=True)
    http = aio.compute_http(*ADMIN)
    svc = _listed(http, down.host)
    assert (svc['state'], svc['status']) == ('down', 'enabled')
    svc = _listed(http, disabled.host)
    assert (svc['state'], svc['status']) == ('up', 'disabled')
    assert svc['disabled_reason'] == 'maintenance'

    resp = http.get('/os-services?binary=tether-compute')
    hosts = {s['host'] for s in resp.json()['services']}
    assert {down.host, disabled.host} <= hosts
    resp = http.get('/os-services?binary=nova-compute')
    assert resp.json()['services'] == []
    resp = http.get('/os-services?host=%s&binary=tether-compute'
                    % down.host)
    assert [s['host'] for s in resp.json()['services']] == [down.host]


def test_unknown_query_parameters_from_2_75(aio):
    for version, status in (('2.74', 200), ('2.75', 400)):
        resp = aio.compute_http(*ADMIN, version=version).get(
            '/os-services?zone=nova')
        assert resp.status_code == status, (version, resp.text)
    assert 'zone' in resp.json()['badRequest']['message']


def test_members_are_forbidden(aio, compute_hosts):
    row = compute_hosts.add()
    member = aio.sdk()
    with pytest.raises(openstack.exceptions.ForbiddenException):
        list(member.compute.services())
    http = aio.compute_http(version='2.53')
    assert http.get('/os-services').status_code == 403
    resp = http.put('/os-services/%s' % row.uuid,
                    json={'status': 'disabled'})
    assert resp.status_code == 403, resp.text
    resp = http.delete('/os-services/%s' % row.uuid)
    assert resp.status_code == 403, resp.text
    assert _listed(aio.compute_http(*ADMIN), row.host)['status'] == \
        'enabled'


@pytest.mark.parametrize('body,words', [
    ({}, "No updates were requested"),
    ({'disabled_reason': 'why'}, "No updates were requested"),
    ({'status': 'enabled', 'disabled_reason': 'why'}, 'disabled_reason'),
    ({'status': 'off'}, 'status'),
    ({'status': 'disabled', 'disabled_reason': ''}, 'disabled_reason'),
    ({'status': 'disabled', 'disabled_reason': 'x' * 256},
     'disabled_reason'),
    ({'forced_down': 'sometimes'}, 'forced_down'),
    ({'forced_down': None}, 'forced_down'),
    ({'host': 'h', 'binary': 'tether-compute'}, 'host'),
])
def test_bad_updates_name_the_problem(aio, compute_hosts, body, words):
    row = compute_hosts.add()
    resp = aio.compute_http(*ADMIN, version='2.53').put(
        '/os-services/%s' % row.uuid, json=body)
    assert resp.status_code == 400, resp.text
    assert words in resp.json()['badRequest']['message']


def test_update_finds_the_service_by_uuid(aio, compute_hosts):
    row = compute_hosts.add()
    http = aio.compute_http(*ADMIN, version='2.53')
    resp = http.put('/os-services/%s' % row.id, json={'status': 'enabled'})
    assert resp.status_code == 400, resp.text
    assert 'Invalid uuid' in resp.json()['badRequest']['message']
    missing = str(uuid.uuid4())
    resp = http.put('/os-services/%s' % missing,
                    json={'status': 'enabled'})
    assert resp.status_code == 404, resp.text
    assert missing in resp.json()['itemNotFound']['message']
    resp = http.put('/os-services/%s' % row.uuid,
                    json={'status': 'disabled', 'forced_down': 'yes'})
    assert resp.status_code == 200, resp.text
    svc = resp.json()['service']
    assert set(svc) == BASE | {'forced_down'}
    assert (svc['id'], svc['host'], svc['status'], svc['forced_down'],
            svc['state'], svc['disabled_reason']) == (
        row.uuid, row.host, 'disabled', True, 'down', None)


def test_update_needs_2_53(aio, compute_hosts):
    row = compute_hosts.add()
    http = aio.compute_http(*ADMIN, version='2.52')
    for path in ('/os-services/%s' % row.uuid, '/os-services/disable'):
        resp = http.put(path, json={'host': row.host,
                                    'binary': 'tether-compute'})
        assert resp.status_code == 404, resp.text


def test_delete_refused_while_the_host_has_servers(aio, compute_hosts,
                                                   servers):
    row = compute_hosts.add()
    instance, _ = servers.add('project-' + uuid.uuid4().hex[:8],
                              host=row.host)
    http = aio.compute_http(*ADMIN, version='2.53')
    resp = http.delete('/os-services/%s' % row.uuid)
    assert resp.status_code == 409, resp.text
    message = resp.json()['conflictingRequest']['message']
    assert row.host in message
    assert _listed(http, row.host)['id'] == row.uuid
    servers.remove()
    resp = http.delete('/os-services/%s' % row.uuid)
    assert resp.status_code == 204, resp.text
    assert resp.content == b''


def test_delete_by_integer_id_before_2_53(aio, compute_hosts):
    row = compute_hosts.add()
    old = aio.compute_http(*ADMIN, version='2.52')
    new = aio.compute_http(*ADMIN, version='2.53')
    resp = old.delete('/os-services/%s' % row.uuid)
    assert resp.status_code == 400, resp.text
    resp = new.delete('/os-services/%s' % row.id)
    assert resp.status_code == 400, resp.text
    assert 'Invalid uuid' in resp.json()['badRequest']['message']
    for missing in ('2147483647', '99999999999999999999999'):
        resp = old.delete('/os-services/%s' % missing)
        assert resp.status_code == 404, (missing, resp.text)
    resp = old.delete('/os-services/%s' % row.id)
    assert resp.status_code == 204, resp.text
    assert old.get('/os-services?host=%s' % row.host).json() == {
        'services': []}
