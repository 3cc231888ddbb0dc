"""What the volume backends report, over HTTP: their pools
(/scheduler-stats/get_pools), a backend's capabilities
(/capabilities/{host}) and the volume hosts (/os-hosts)."""

import uuid

from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh

LATEST = '3.71'


def _admin(aio, version=LATEST):
    return aio.http('admin', 'admin', version=version)


def _local_pool(pools):
    [pool] = [p for p in pools if '@local#' in p['name']]
    return pool


def test_pools_and_capabilities(aio):
    http = _admin(aio)
    pools = http.get('/scheduler-stats/get_pools').json()['pools']
    pool = _local_pool(pools)
    assert set(pool) == {'name'}
    detail = _local_pool(http.get(
        '/scheduler-stats/get_pools?detail=True').json()['pools'])
    caps = detail['capabilities']
    assert (caps['vendor_name'], caps['storage_protocol'],
            caps['volume_backend_name'], caps['multiattach']) == (
        'tether', 'nfs', 'local', True)
    assert caps['pool_name'] and caps['total_capacity_gb'] > 0
    assert caps['timestamp']
    # One by name (3.28); those a type may use (3.35).
    named = http.get('/scheduler-stats/get_pools',
                     params={'name': detail['name']}).json()['pools']
    assert named == [pool]
    assert http.get('/scheduler-stats/get_pools?name=nope').json()[
        'pools'] == []
    admin = aio.http('admin', 'admin', version=LATEST)
    bogus = admin.post('/types', json={'volume_type': {
        'name': 'type-' + uuid.uuid4().hex[:8],
        'extra_specs': {'vendor_name': 'nobody'}}}).json()['volume_type']
    assert http.get('/scheduler-stats/get_pools?volume_type=%s'
                    % bogus['id']).json()['pools'] == []
    assert pool in http.get('/scheduler-stats/get_pools?volume_type='
                            '__DEFAULT__').json()['pools']
    for version, query, status in (('3.27', 'name=x', 400),
                                   ('3.34', 'volume_type=x', 400),
                                   ('3.71', 'detail=maybe', 400),
                                   ('3.71', 'color=red', 400),
                                   ('3.71', 'volume_type=nope', 404)):
        resp = _admin(aio, version).get('/scheduler-stats/get_pools?'
                                        + query)
        assert resp.status_code == status, (version, query, resp.text)

    # The capabilities of its backend, by the backend's name or a pool's
    # (whose "#pool" a client sends as a fragment, or encoded).
    backend = detail['name'].partition('#')[0]
    for name in (backend, backend + '%23pool'):
        resp = http.get('/capabilities/%s' % name)
        assert resp.status_code == 200, resp.text
        body = resp.json()
        assert body['namespace'] == 'OS::Storage::Capabilities::' + backend
        assert (body['vendor_name'], body['storage_protocol'],
                body['volume_backend_name']) == ('tether', 'nfs', 'local')
        assert body['properties']['thin_provisioning']['type'] == 'boolean'
    resp = http.get('/capabilities/nowhere@none')
    assert resp.status_code == 404
    member = aio.http(version=LATEST)
    assert member.get('/scheduler-stats/get_pools').status_code == 403
    assert member.get('/capabilities/%s' % backend).status_code == 403


def test_hosts(aio, wait):
    http = aio.http(version=LATEST)
    volume = helpers.create_volume(http, size=2, wait_for=wait)
    sh.snapshot(http, volume['id'], wait_for=wait)
    admin = _admin(aio)
    hosts = admin.get('/os-hosts').json()['hosts']
    [local] = [h for h in hosts if h['host_name'].endswith('@local')]
    assert (local['service'], local['zone'], local['service-status'],
            local['service-state']) == ('cinder-volume', 'nova',
                                        'available', 'enabled')
    assert admin.get('/os-hosts?zone=nowhere').json()['hosts'] == []
    resp = admin.get('/os-hosts/%s' % local['host_name'])
    assert resp.status_code == 200, resp.text
    rows = {r['resource']['project']: r['resource']
            for r in resp.json()['host']}
    mine = rows[http.project]
    assert (mine['volume_count'], mine['total_volume_gb'],
            mine['snapshot_count'], mine['total_snapshot_gb']) == (
        '1', '2', '1', '2')
    total = rows['(total)']
    assert int(total['volume_count']) >= 1
    assert resp.json()['host'][0]['resource']['project'] == '(total)'
    assert admin.get('/os-hosts/nowhere').status_code == 404
    assert aio.http(version=LATEST).get('/os-hosts').status_code == 403
