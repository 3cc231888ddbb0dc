"""The compute API's samples of services, hypervisors and availability
zones (doc/api_samples/compute/), replayed as an administrator. The
lists are of the aio's own host (other tests add hosts of their own)."""

import uuid

from oslo_config import cfg

from tests.functional.api_samples import samples

VERSION = '2.96'


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


def test_the_availability_zones_story(aio):
    member = aio.compute_http(version=VERSION)
    samples.Samples('compute', member).exchange(
        'availability-zones-list', 'GET', '/os-availability-zone',
        version=VERSION)
    story = samples.Samples('compute', _admin(aio),
                            service_host=cfg.CONF.host)
    story.exchange('availability-zones-list-detail', 'GET',
                   '/os-availability-zone/detail', version=VERSION)
