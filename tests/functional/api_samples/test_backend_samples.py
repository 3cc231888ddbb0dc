"""The volume API's samples of what the backends report and of the
os-services actions (doc/api_samples/volume/), replayed against a
volume service record of a host and zone of their own: its pools (with
and without details), its capabilities, the hosts of its zone and what
it holds, and its service enabled, disabled, frozen and thawed."""

import uuid

import pytest
import sqlalchemy as sa

from tests.functional.api_samples import samples
from tests.functional import helpers
from tether.db.volume import models
from tether.db.volume import service as db_services
from tether.db import session as db_session
from tether.volume import manager as volume_manager

VERSION = '3.71'
REPORT = {
    'volume_backend_name': 'nfs-gold', 'vendor_name': 'tether',
    'driver_version': '1.0', 'storage_protocol': 'nfs',
    'multiattach': True,
    'pools': [{'pool_name': 'srv-nfs-gold', 'total_capacity_gb': 1024.0,
               'free_capacity_gb': 1000.0, 'reserved_percentage': 0,
               'max_over_subscription_ratio': 20.0,
               'thin_provisioning_support': True,
               'provisioned_capacity_gb': 24}],
}


@pytest.fixture
def backend(aio):
    ctx = helpers.admin_context()
    zone = 'zone-' + uuid.uuid4().hex[:8]
    host = 'storage-%s@nfs-gold' % uuid.uuid4().hex[:6]
    service_id = db_services.register(ctx, host, volume_manager.BINARY,
                                      'tether-volume', zone, '1.0', '1.0')
    db_services.heartbeat(ctx, service_id, REPORT)
    yield host, zone
    with db_session.VOLUME.get_context_manager().writer.using(ctx):
        ctx.session.execute(sa.delete(models.Service).where(
            models.Service.id == service_id))


def test_the_backend_samples(aio, backend):
    host, zone = backend
    http = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                    roles=['admin'], version=VERSION)
    pool = '%s#srv-nfs-gold' % host
    story = samples.Samples('volume', http, backend_host=host, zone=zone)
    story.exchange('pools-list', 'GET',
                   '/scheduler-stats/get_pools?name=%s' % pool.replace(
                       '#', '%23'), version=VERSION)
    story.exchange('pools-list-detail', 'GET',
                   '/scheduler-stats/get_pools?detail=true&name=%s'
                   % pool.replace('#', '%23'), version=VERSION)
    story.exchange('capabilities-show', 'GET', '/capabilities/%s' % host,
                   version=VERSION)
    story.exchange('hosts-list', 'GET', '/os-hosts?zone=%s' % zone,
                   version=VERSION)
    story.exchange('host-show', 'GET', '/os-hosts/%s' % host,
                   version=VERSION)
    service = {'host': host, 'binary': 'cinder-volume'}
    story.exchange('service-disable-log-reason', 'PUT',
                   '/os-services/disable-log-reason',
                   dict(service, disabled_reason='maintenance'),
                   version=VERSION)
    story.exchange('service-enable', 'PUT', '/os-services/enable', service,
                   version=VERSION)
    story.exchange('service-disable', 'PUT', '/os-services/disable',
                   service, version=VERSION)
    story.exchange('service-freeze', 'PUT', '/os-services/freeze',
                   {'host': host}, version=VERSION)
    story.exchange('service-thaw', 'PUT', '/os-services/thaw',
                   {'host': host}, version=VERSION)
