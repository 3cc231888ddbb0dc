"""The availability zones of the compute hosts over HTTP."""

import uuid

import openstack
import pytest

ADMIN = ('admin', 'admin')


def _zone():
    return 'zone-' + uuid.uuid4().hex[:8]


def _zones(http, path='/os-availability-zone'):
    resp = http.get(path)
    assert resp.status_code == 200, resp.text
    return resp.json()['availabilityZoneInfo']


def test_anyone_lists_the_zones(aio, compute_hosts):
    up, down, disabled = _zone(), _zone(), _zone()
    compute_hosts.add(zone=up)
    compute_hosts.add(zone=down, down=True)
    compute_hosts.add(zone=disabled, disabled=True)
    user = aio.sdk()
    zones = {z.name: z for z in user.compute.availability_zones()}
    # tether-aio's own tether-compute is in the default zone.
    assert zones['nova'].state == {'available': True}
    assert zones[up].state == {'available': True}
    assert zones[down].state == {'available': False}
    assert zones[disabled].state == {'available': False}
    assert zones[up].hosts is None

    listed = _zones(aio.compute_http())
    assert set(listed[0]) == {'zoneName', 'zoneState', 'hosts'}
    names = [z['zoneName'] for z in listed]
    available = [z['zoneState']['available'] for z in listed]
    # The available zones come first.
    assert available == sorted(available, reverse=True)
    assert names.index(up) < names.index(down)
    assert all(z['hosts'] is None for z in listed)


def test_a_zone_is_available_while_one_enabled_host_is_up(aio,
                                                          compute_hosts):
    zone = _zone()
    compute_hosts.add(zone=zone, down=True)
    http = aio.compute_http()

    def state():
        (found,) = [z for z in _zones(http) if z['zoneName'] == zone]
        return found['zoneState']['available']

    assert state() is False
    up = compute_hosts.add(zone=zone)
    assert state() is True
    admin = aio.admin()
    admin.compute.disable_service(up.uuid, disabled_reason='drain')
    assert state() is False
    admin.compute.enable_service(up.uuid)
    assert state() is True


def test_admins_see_the_hosts(aio, compute_hosts):
    zone, dead_zone = _zone(), _zone()
    up = compute_hosts.add(zone=zone)
    down = compute_hosts.add(zone=zone, down=True)
    disabled = compute_hosts.add(zone=zone, disabled=True)
    compute_hosts.add(zone=dead_zone, down=True)
    zones = {z['zoneName']: z for z in _zones(
        aio.compute_http(*ADMIN), '/os-availability-zone/detail')}
    hosts = zones[zone]['hosts']
    assert zones[zone]['zoneState'] == {'available': True}
    # Disabled services are left out, down ones are there.
    assert set(hosts) == {up.host, down.host}
    state = hosts[up.host]['tether-compute']
    assert set(state) == {'available', 'active', 'updated_at'}
    assert (state['available'], state['active']) == (True, True)
    assert state['updated_at']
    assert hosts[down.host]['tether-compute']['available'] is False
    assert disabled.host not in hosts
    assert zones[dead_zone] == {'zoneName': dead_zone,
                                'zoneState': {'available': False},
                                'hosts': None}
    sdk_zones = {z.name: z for z in
                 aio.admin().compute.availability_zones(details=True)}
    assert set(sdk_zones[zone].hosts) == {up.host, down.host}


def test_detail_is_for_admins(aio):
    with pytest.raises(openstack.exceptions.ForbiddenException):
        list(aio.sdk().compute.availability_zones(details=True))
    resp = aio.compute_http().get('/os-availability-zone/detail')
    assert resp.status_code == 403, resp.text
    assert 'os-availability-zone:detail' in resp.json()['forbidden'][
        'message']


def test_query_parameters_are_ignored(aio):
    http = aio.compute_http(version='2.90')
    assert _zones(http, '/os-availability-zone?foo=bar') == _zones(http)
