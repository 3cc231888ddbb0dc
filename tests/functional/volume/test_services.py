"""The service list (os-services) and availability zones over HTTP."""

import datetime
import uuid

import openstack
import pytest
import sqlalchemy as sa

from tests.functional import helpers
from tether.db import base
from tether.db.volume import models
from tether.db.volume import service as db_services
from tether.db import session as db_session


@pytest.fixture
def dead_service():
    """A volume service in its own zone whose last heartbeat is old, as
    after a crash (fault injection: the row is written, not the process
    killed). Removed afterwards."""
    host = 'ghost-%s@nfs' % uuid.uuid4().hex[:6]
    zone = 'zone-%s' % uuid.uuid4().hex[:6]
    ctx = helpers.admin_context()
    service_id = db_services.register(ctx, host, 'tether-volume',
                                      'tether-volume', zone, '1.0', '1.0')
    old = base.now() - datetime.timedelta(days=1)
    engine = db_session.VOLUME.get_engine()
    with engine.begin() as conn:
        conn.execute(sa.update(models.Service)
                     .where(models.Service.id == service_id)
                     .values(heartbeat_at=old, updated_at=old))
    yield host, zone
    with engine.begin() as conn:
        conn.execute(sa.delete(models.Service)
                     .where(models.Service.id == service_id))


def _local(services, binary='cinder-volume'):
    return [s for s in services if not s['host'].startswith('ghost-')
            and s['binary'] == binary]


def test_admin_lists_the_volume_service(aio):
    admin = aio.admin()
    # Cinder's name on the wire, as its clients and Tempest look for it.
    services = [s for s in admin.block_storage.services()
                if s.binary == 'cinder-volume'
                and s.host.endswith('@local')]
    assert len(services) == 1
    svc = services[0]
    assert svc.status == 'enabled'
    assert svc.state == 'up'
    assert svc.availability_zone == 'nova'


def test_wire_format_per_version(aio):
    for version, extra in (('3.0', set()), ('3.7', {'cluster'}),
                           ('3.49', {'cluster', 'backend_state'})):
        admin = aio.http('admin', 'admin', version=version)
        resp = admin.get('/os-services')
        assert resp.status_code == 200, resp.text
        (svc,) = _local(resp.json()['services'])
        assert set(svc) == {'binary', 'host', 'zone', 'status', 'state',
                            'updated_at', 'disabled_reason',
                            'replication_status', 'active_backend_id',
                            'frozen'} | extra
        assert svc['replication_status'] == 'disabled'
        assert svc['frozen'] is False
        assert svc['disabled_reason'] is None
        if 'backend_state' in extra:
            assert svc['backend_state'] == 'up'
        if 'cluster' in extra:
            assert svc['cluster'] is None


def test_filters(aio):
    admin = aio.http('admin', 'admin')
    (svc,) = _local(admin.get('/os-services').json()['services'])
    node = svc['host'].split('@')[0]
    assert svc['binary'] == 'cinder-volume'
    # Cinder's name, and the name tether records (its docs and logs).
    for query in ('host=%s' % svc['host'], 'host=%s' % node,
                  'binary=cinder-volume', 'binary=tether-volume',
                  'host=%s&binary=cinder-volume' % node):
        services = _local(admin.get('/os-services?' + query)
                          .json()['services'])
        assert [s['host'] for s in services] == [svc['host']], query
    # Unknown values match nothing (as in Cinder); they are not errors.
    for query in ('host=nowhere', 'binary=cinder-scheduler', 'binary=',
                  'host=%s&binary=tether-api' % node):
        resp = admin.get('/os-services?' + query)
        assert resp.status_code == 200, resp.text
        assert resp.json()['services'] == [], query


def test_the_backup_service(aio):
    """tether-backup: cinder-backup on the wire, of its host (no
    backend), without the keys of a volume service."""
    admin = aio.http('admin', 'admin', version='3.49')
    for query in ('binary=cinder-backup', 'binary=tether-backup'):
        (svc,) = _local(admin.get('/os-services?' + query).json()[
            'services'], 'cinder-backup')
        assert '@' not in svc['host']
        assert (svc['state'], svc['status'], svc['zone']) == (
            'up', 'enabled', 'nova')
        assert set(svc) == {'binary', 'host', 'zone', 'status', 'state',
                            'updated_at', 'disabled_reason', 'cluster'}


def test_a_dead_service_is_down(aio, dead_service):
    host, zone = dead_service
    admin = aio.http('admin', 'admin', version='3.49')
    (svc,) = admin.get('/os-services?host=%s' % host).json()['services']
    assert svc['state'] == 'down'
    assert svc['backend_state'] == 'down'
    assert svc['zone'] == zone

    zones = {z['zoneName']: z['zoneState']['available']
             for z in aio.http().get('/os-availability-zone')
             .json()['availabilityZoneInfo']}
    assert zones[zone] is False
    assert zones['nova'] is True


def test_members_cannot_list_services(aio):
    user = aio.sdk()
    with pytest.raises(openstack.exceptions.ForbiddenException):
        list(user.block_storage.services())


@pytest.mark.parametrize('query, field', [
    ('foo=bar', 'foo'),
    ('host=' + 'h' * 256, 'host'),
    ('binary=a&binary=b', 'binary'),
])
def test_bad_query_gets_400(aio, query, field):
    resp = aio.http('admin', 'admin').get('/os-services?' + query)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


def test_availability_zones(aio):
    user = aio.sdk()
    zones = {z.name: z.state for z in user.block_storage.availability_zones()}
    assert zones['nova'] == {'available': True}

    resp = aio.http().get('/os-availability-zone')
    assert resp.status_code == 200, resp.text
    assert {'zoneName': 'nova', 'zoneState': {'available': True}} in \
        resp.json()['availabilityZoneInfo']


def test_availability_zones_need_a_role_and_a_clean_query(aio):
    resp = aio.http(roles=['nothing']).get('/os-availability-zone')
    assert resp.status_code == 403, resp.text
    resp = aio.http().get('/os-availability-zone?detail=1')
    assert resp.status_code == 400, resp.text
    assert 'detail' in resp.json()['badRequest']['message']
