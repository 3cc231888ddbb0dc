"""The hypervisor routes Nova serves up to a microversion, over HTTP:
statistics and uptime (2.1 to 2.87), search and servers (2.1 to 2.52)."""

import re
import time
import uuid

import pytest

from tests.functional.compute import conftest

ADMIN = ('admin', 'admin')
BASIC = {'id', 'hypervisor_hostname', 'state', 'status'}
SUMMED = ('vcpus', 'memory_mb', 'local_gb', 'vcpus_used', 'memory_mb_used',
          'local_gb_used', 'running_vms', 'current_workload', 'free_ram_mb',
          'free_disk_gb', 'disk_available_least')
# What the uptime command prints, less its user count.
UPTIME = re.compile(r'^ \d\d:\d\d:\d\d up (\d+ days?,  )?( ?\d+:\d\d|\d+ min)'
                    r',  load average: \d+\.\d\d, \d+\.\d\d, \d+\.\d\d$')


def _get(http, path):
    resp = http.get(path)
    assert resp.status_code == 200, resp.text
    return resp.json()


def test_statistics_sum_the_enabled_hosts(aio, compute_hosts):
    compute_hosts.add()
    compute_hosts.add()
    compute_hosts.add(disabled=True)
    http = aio.compute_http(*ADMIN, version='2.87')
    stats = _get(http, '/os-hypervisors/statistics')['hypervisor_statistics']
    enabled = [h for h in _get(http, '/os-hypervisors/detail')['hypervisors']
               if h['status'] == 'enabled']
    assert stats['count'] == len(enabled) >= 3   # the aio's own host too
    for key in SUMMED:
        assert stats[key] == sum(h[key] for h in enabled), key
    assert set(stats) == set(SUMMED) | {'count'}
    # The same at 2.1, gone from 2.88 (Placement has it in Nova).
    assert _get(aio.compute_http(*ADMIN, version='2.1'),
                '/os-hypervisors/statistics')['hypervisor_statistics'] == stats
    resp = aio.compute_http(*ADMIN, version='2.88').get(
        '/os-hypervisors/statistics')
    assert resp.status_code == 404, resp.text


def test_uptime_of_the_aio_host_as_the_uptime_command_words_it(aio):
    http = aio.compute_http(*ADMIN, version='2.87')
    (real,) = [h for h in _get(http, '/os-hypervisors/detail')['hypervisors']
               if h['hypervisor_type'] == 'QEMU' and h['state'] == 'up'
               and h['host_ip'] != conftest.HOST_IP]
    body = _get(http, '/os-hypervisors/%s/uptime' % real['id'])['hypervisor']
    assert set(body) == BASIC | {'uptime'}
    assert UPTIME.match(body['uptime']), body['uptime']
    # As the kernel counts it: the host's own uptime.
    with open('/proc/uptime') as f:
        seconds = float(f.read().split()[0])
    days = int(seconds // 86400)
    if days:
        assert ' up %d day' % days in body['uptime']
    # At 2.1 by integer id too; from 2.88 it is in the hypervisor itself.
    old = aio.compute_http(*ADMIN, version='2.1')
    (listed,) = [h for h in _get(old, '/os-hypervisors')['hypervisors']
                 if h['hypervisor_hostname'] == real['hypervisor_hostname']]
    assert UPTIME.match(_get(old, '/os-hypervisors/%s/uptime' % listed['id'])
                        ['hypervisor']['uptime'])
    new = aio.compute_http(*ADMIN, version='2.88')
    resp = new.get('/os-hypervisors/%s/uptime' % real['id'])
    assert resp.status_code == 404, resp.text
    shown = _get(new, '/os-hypervisors/%s' % real['id'])['hypervisor']
    assert UPTIME.match(shown['uptime']), shown['uptime']


def test_uptime_words():
    from tether.compute.api import hypervisors
    from tether.compute.api import services
    now = time.mktime((2026, 11, 24, 20, 5, 9, 0, 0, 0)) - time.timezone

    def host(**stats):
        return services.Host(
            id=1, uuid='u', binary='tether-compute', host='h', zone='nova',
            disabled=False, disabled_reason=None, forced_down=False,
            is_up=True, updated_at=None, hypervisor_hostname='h',
            host_ip=None, stats=stats)
    assert hypervisors.uptime(host(), now) is None
    assert hypervisors.uptime(host(boot_time=now - 300), now) == (
        ' 20:05:09 up 5 min,  load average: 0.00, 0.00, 0.00')
    assert hypervisors.uptime(host(boot_time=now - 3 * 86400 - 4 * 3600
                                   - 12 * 60,
                                   load_average=[0.5, 0.25, 1]), now) == (
        ' 20:05:09 up 3 days,   4:12,  load average: 0.50, 0.25, 1.00')
    assert hypervisors.uptime(host(boot_time=now - 86400 - 60), now) == (
        ' 20:05:09 up 1 day,  1 min,  load average: 0.00, 0.00, 0.00')


def test_uptime_of_a_host_that_is_down_or_has_not_reported(aio,
                                                           compute_hosts):
    http = aio.compute_http(*ADMIN, version='2.53')
    down = compute_hosts.add(down=True)
    resp = http.get('/os-hypervisors/%s/uptime' % down.uuid)
    assert resp.status_code == 400, resp.text
    assert 'unavailable' in resp.json()['badRequest']['message']
    # Its stats have no boot time: a host older than this API.
    old = compute_hosts.add()
    resp = http.get('/os-hypervisors/%s/uptime' % old.uuid)
    assert resp.status_code == 501, resp.text
    assert 'not reported its uptime' in resp.text
    resp = http.get('/os-hypervisors/%s/uptime' % uuid.uuid4())
    assert resp.status_code == 404, resp.text
    resp = http.get('/os-hypervisors/not-a-uuid/uptime')
    assert resp.status_code == 400, resp.text
    resp = aio.compute_http(*ADMIN, version='2.1').get(
        '/os-hypervisors/abc/uptime')
    assert resp.status_code == 404, resp.text


def test_search_and_servers_up_to_2_52(aio, compute_hosts, servers):
    busy = compute_hosts.add()
    idle = compute_hosts.add()
    instance, _ = servers.add('project-' + uuid.uuid4().hex[:8],
                              host=busy.host)
    http = aio.compute_http(*ADMIN, version='2.52')
    found = _get(http, '/os-hypervisors/%s/search' % busy.host)[
        'hypervisors']
    assert found == [{'id': busy.id,
                      'hypervisor_hostname': busy.hypervisor_hostname,
                      'state': 'up', 'status': 'enabled'}]
    found = _get(http, '/os-hypervisors/%s/servers' % busy.host)[
        'hypervisors']
    assert [h['servers'] for h in found] == [
        [{'name': 'instance-' + instance.uuid, 'uuid': instance.uuid}]]
    # A hypervisor without servers has no "servers" key (as in Nova).
    found = _get(http, '/os-hypervisors/%s/servers' % idle.host)[
        'hypervisors']
    assert [set(h) for h in found] == [BASIC]
    for route in ('search', 'servers'):
        resp = http.get('/os-hypervisors/no-such-host-%s/%s'
                        % (uuid.uuid4().hex[:6], route))
        assert resp.status_code == 404, resp.text
        assert 'No hypervisor matching' in resp.text
        resp = aio.compute_http(*ADMIN, version='2.53').get(
            '/os-hypervisors/%s/%s' % (busy.host, route))
        assert resp.status_code == 404, resp.text


@pytest.mark.parametrize('path', [
    '/os-hypervisors/statistics', '/os-hypervisors/1/uptime',
    '/os-hypervisors/fake/search', '/os-hypervisors/fake/servers'])
def test_members_are_forbidden(aio, path):
    resp = aio.compute_http(version='2.1').get(path)
    assert resp.status_code == 403, resp.text


def test_openstacksdk_reads_the_uptime(aio):
    """openstacksdk reads it from the hypervisor at its newest version
    (2.88 and later; it refuses the uptime route itself there)."""
    admin = aio.admin()
    hyp = next(h for h in admin.compute.hypervisors(details=True)
               if h.status == 'enabled' and h.state == 'up'
               and h.host_ip != conftest.HOST_IP)
    assert UPTIME.match(admin.compute.get_hypervisor(hyp.id).uptime)
