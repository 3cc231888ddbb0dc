"""Backend choice against the real services table (volume.scheduler).

The backends are service records in a zone of their own, so the aio's own
backend (zone ``nova``) is never a candidate and never disturbed.
"""

import datetime
import uuid

import pytest
import sqlalchemy as sa

from tests.functional import helpers
from tether.db import base
from tether.db.volume import models
from tether.db.volume import service as db_services
from tether.db import session as db_session
from tether.volume import manager as volume_manager
from tether.volume import scheduler


def _pool(name, free, total=100, provisioned=0):
    return {'pool_name': name, 'total_capacity_gb': total,
            'free_capacity_gb': free, 'reserved_percentage': 0,
            'max_over_subscription_ratio': 1.0,
            'thin_provisioning_support': False,
            'provisioned_capacity_gb': provisioned}


@pytest.fixture
def zone(aio):
    """A fresh zone; its service records are removed afterwards."""
    name = 'zone-' + uuid.uuid4().hex[:8]
    yield name
    ctx = helpers.admin_context()
    with db_session.VOLUME.get_context_manager().writer.using(ctx):
        ctx.session.execute(sa.delete(models.Service).where(
            models.Service.availability_zone == name))


def _backend(zone, pools, **values):
    ctx = helpers.admin_context()
    host = 'sched-%s@b' % uuid.uuid4().hex[:6]
    service_id = db_services.register(ctx, host, volume_manager.BINARY,
                                      'tether-volume', zone, '1.0', '1.0')
    db_services.heartbeat(ctx, service_id, {'pools': pools})
    if values:
        with db_session.VOLUME.get_context_manager().writer.using(ctx):
            ctx.session.execute(sa.update(models.Service).where(
                models.Service.id == service_id).values(**values))
    return host


def test_the_pool_with_most_room_wins(zone):
    ctx = helpers.admin_context()
    assert scheduler.choose_backend(ctx, 1, zone) is None
    _backend(zone, [_pool('a', 10), _pool('b', 30)])
    big = _backend(zone, [_pool('c', 50)])
    assert scheduler.choose_backend(ctx, 1, zone) == big + '#c'
    assert scheduler.choose_backend(ctx, 50, zone) == big + '#c'
    assert scheduler.choose_backend(ctx, 51, zone) is None


def test_disabled_and_down_backends_are_skipped(zone):
    ctx = helpers.admin_context()
    fine = _backend(zone, [_pool('p', 10)])
    _backend(zone, [_pool('p', 90)], disabled=True)
    _backend(zone, [_pool('p', 80)],
             heartbeat_at=base.now() - datetime.timedelta(hours=1))
    assert scheduler.choose_backend(ctx, 5, zone) == fine + '#p'
    assert scheduler.choose_backend(ctx, 20, zone) is None


def test_no_room_anywhere_puts_a_new_volume_in_error(aio, zone):
    _backend(zone, [_pool('p', 1)])
    http = aio.http()
    resp = http.post('/volumes', json={'volume': {
        'size': 2, 'availability_zone': zone}})
    assert resp.status_code == 202, resp.text
    volume = resp.json()['volume']
    assert volume['status'] == 'error'
    # A create that failed holds no quota (Cinder's volume would until it
    # is deleted): the volume stays for its owner to see, and its delete
    # gives nothing back a second time.
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}
    shown = http.get('/volumes/%s' % volume['id'],
                     headers={'OpenStack-API-Version': 'volume 3.65'})
    assert shown.json()['volume']['consumes_quota'] is False
    assert http.delete('/volumes/%s' % volume['id']).status_code == 202
    assert helpers.db_volume(volume['id']) is None
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}


def test_a_zone_no_volume_service_is_in_is_refused_before_anything(aio):
    """Cinder's 400: nothing stored, nothing counted (tether used to take
    the volume and put it in error)."""
    http = aio.http()
    resp = http.post('/volumes', json={'volume': {
        'size': 1, 'availability_zone': 'nowhere-%s' % http.project}})
    assert resp.status_code == 400, resp.text
    body = resp.json()['badRequest']
    assert "Availability zone 'nowhere-%s' is invalid." % http.project == \
        body['message']
    assert body['error_code'] == 'volume.availability_zone.invalid'
    assert helpers.project_volumes(http.project) == []
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}


def test_a_known_zone_whose_services_are_down_is_taken(aio, zone):
    """As Cinder: the zone exists; the volume goes to error for want of a
    backend, and holds no quota."""
    _backend(zone, [_pool('p', 90)],
             heartbeat_at=base.now() - datetime.timedelta(hours=1))
    http = aio.http()
    resp = http.post('/volumes', json={'volume': {
        'size': 1, 'availability_zone': zone}})
    assert resp.status_code == 202, resp.text
    assert resp.json()['volume']['status'] == 'error'
