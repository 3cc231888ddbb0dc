"""The compute API's samples of services, hypervisors and availability
zones (doc/api_samples/compute/), replayed as an administrator. The
lists are of the aio's own host (other tests add hosts of their own);
a service changed or deleted is one the story adds, as a tether-compute
registers (tests/functional/compute/conftest.py)."""

import uuid

from oslo_config import cfg

from tests.functional.api_samples import samples
from tests.functional.compute import conftest as compute_conftest

VERSION = '2.96'
# The last microversions of the hypervisor routes Nova serves up to one:
# statistics and uptime to 2.87, search and servers to 2.52.
STATISTICS_VERSION = '2.87'
SEARCH_VERSION = '2.52'


def _admin(aio):
    return aio.compute_http('operator', 'ops-' + uuid.uuid4().hex[:8],
                            roles=['admin'], version=VERSION)


def _own_hypervisor(admin):
    resp = admin.get('/os-hypervisors/detail')
    assert resp.status_code == 200, resp.text
    (own,) = [h for h in resp.json()['hypervisors']
              if h['service']['host'] == cfg.CONF.host]
    return own


def test_the_compute_services_story(aio):
    admin = _admin(aio)
    story = samples.Samples('compute', admin, service_host=cfg.CONF.host)
    story.exchange('services-list', 'GET',
                   '/os-services?host=%s' % cfg.CONF.host, version=VERSION)


def test_the_compute_service_changes_story(aio, compute_hosts):
    row = compute_hosts.add(host=compute_conftest.unique('compute'))
    story = samples.Samples('compute', _admin(aio), service_host=row.host,
                            service_id=row.uuid)
    path = '/os-services/%s' % row.uuid
    story.exchange('service-disable', 'PUT', path, {
        'status': 'disabled', 'disabled_reason': 'maintenance'},
        version=VERSION)
    story.exchange('service-enable', 'PUT', path, {'status': 'enabled'},
                   version=VERSION)
    story.exchange('service-delete', 'DELETE', path, version=VERSION)


def test_the_hypervisors_story(aio):
    admin = _admin(aio)
    own = _own_hypervisor(admin)
    story = samples.Samples(
        'compute', admin, service_host=cfg.CONF.host,
        hypervisor_id=own['id'],
        hypervisor_hostname=own['hypervisor_hostname'],
        host_ip=own['host_ip'])
    # The samples say %(int)s of hypervisor_version (the host's QEMU) and
    # %(text)s of uptime (the host's uptime(1)), by hand; regenerating
    # keeps them (samples.kept).
    query = '?hypervisor_hostname_pattern=%s' % own['hypervisor_hostname']
    story.exchange('hypervisors-list', 'GET', '/os-hypervisors' + query,
                   version=VERSION)
    story.exchange('hypervisors-list-detail', 'GET',
                   '/os-hypervisors/detail' + query, version=VERSION)
    story.exchange('hypervisor-show', 'GET',
                   '/os-hypervisors/%s' % own['id'], version=VERSION)


def test_the_hypervisor_statistics_and_uptime_story(aio):
    """Up to 2.87 (then Placement has the statistics in Nova, and the
    uptime is in the hypervisor itself). The samples say %(int)s of each
    sum (of every host that runs) and %(text)s of the uptime, by hand."""
    admin = _admin(aio)
    own = _own_hypervisor(admin)
    story = samples.Samples(
        'compute', admin, hypervisor_id=own['id'],
        hypervisor_hostname=own['hypervisor_hostname'])
    story.exchange('hypervisors-statistics', 'GET',
                   '/os-hypervisors/statistics', version=STATISTICS_VERSION)
    story.exchange('hypervisor-uptime', 'GET',
                   '/os-hypervisors/%s/uptime' % own['id'],
                   version=STATISTICS_VERSION)


def test_the_hypervisor_search_story(aio, compute_hosts, instances):
    """Up to 2.52 (then the hypervisor_hostname_pattern and with_servers
    query parameters do it), with integer ids: the samples say %(int)s
    of them, by hand. The hypervisor is one the story adds, with one
    server."""
    row = compute_hosts.add(host=compute_conftest.unique('compute'))
    instance, _ = instances.add('project-' + uuid.uuid4().hex[:8],
                                host=row.host, name='web')
    story = samples.Samples(
        'compute', _admin(aio), service_host=row.host,
        hypervisor_hostname=row.hypervisor_hostname,
        server_id=instance.uuid)
    story.exchange('hypervisors-search', 'GET',
                   '/os-hypervisors/%s/search' % row.host,
                   version=SEARCH_VERSION)
    story.exchange('hypervisors-servers', 'GET',
                   '/os-hypervisors/%s/servers' % row.host,
                   version=SEARCH_VERSION)


def test_the_availability_zones_story(aio):
    member = aio.compute_http(version=VERSION)
    samples.Samples('compute', member).exchange(
        'availability-zones-list', 'GET', '/os-availability-zone',
        version=VERSION)
    story = samples.Samples('compute', _admin(aio),
                            service_host=cfg.CONF.host)
    story.exchange('availability-zones-list-detail', 'GET',
                   '/os-availability-zone/detail', version=VERSION)
