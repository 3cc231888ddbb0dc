"""An aggregate's availability zone on tether-aio's own compute host:
servers asked for the zone boot there and show it, servers asked for
none take it, the default zone then has no host (a clear NoValidHost),
and the host leaves the zone only once its servers are gone."""

import uuid

from oslo_config import cfg
import pytest
import sqlalchemy as sa

from tests.functional.compute import conftest as compute_conftest
from tests.functional.compute import server_helpers as sh
from tether.db.compute import models
from tether.db import session

CONF = cfg.CONF


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def zone(aio):
    """An aggregate with a zone of its own holding the aio's compute
    host: (its id, the zone). Removed in the database after the test
    whatever its servers (after the cloud fixture deleted them)."""
    admin = aio.compute_http('admin', 'admin')
    name = 'zone-' + uuid.uuid4().hex[:8]
    resp = admin.post('/os-aggregates', json={'aggregate': {
        'name': name, 'availability_zone': name}})
    assert resp.status_code == 200, resp.text
    aggregate_id = resp.json()['aggregate']['id']
    try:
        yield aggregate_id, name
    finally:
        ctx = compute_conftest.admin_context()
        with session.COMPUTE.writing(ctx):
            for table in (models.AggregateHost, models.AggregateMetadata):
                ctx.session.execute(sa.delete(table).where(
                    table.aggregate_id == aggregate_id))
            ctx.session.execute(sa.delete(models.Aggregate).where(
                models.Aggregate.id == aggregate_id))


def test_servers_in_the_zone_of_an_aggregate(aio, zone, cloud):
    aggregate_id, name = zone
    admin = aio.compute_http('admin', 'admin', version='2.41')
    user = cloud.project()
    resp = admin.post('/os-aggregates/%s/action' % aggregate_id,
                      json={'add_host': {'host': CONF.host}})
    assert resp.status_code == 200, resp.text
    zones = {z['zoneName']: z for z in admin.get(
        '/os-availability-zone/detail').json()['availabilityZoneInfo']}
    assert CONF.host in zones[name]['hosts']
    default = zones.get(CONF.default_availability_zone)
    assert default is None or CONF.host not in (default['hosts'] or {})

    asked = user.boot(availability_zone=name)
    shown = user.server(asked.id, '2.96')
    assert shown['OS-EXT-AZ:availability_zone'] == name
    assert shown['pinned_availability_zone'] == name
    anywhere = user.boot()
    shown = user.server(anywhere.id, '2.96')
    assert shown['OS-EXT-AZ:availability_zone'] == name
    assert shown['pinned_availability_zone'] is None
    # No host is left in the default zone (unless a test left one).
    lost = user.boot(availability_zone=CONF.default_availability_zone,
                     wait=False)
    failed = user.wait_server(lost.id, 'ERROR')
    assert 'in zone %s' % CONF.default_availability_zone in \
        failed.fault['message']

    # The host keeps its zone while it has servers.
    resp = admin.post('/os-aggregates/%s/action' % aggregate_id,
                      json={'remove_host': {'host': CONF.host}})
    assert resp.status_code == 409, resp.text
    resp = admin.put('/os-aggregates/%s' % aggregate_id,
                     json={'aggregate': {'availability_zone': 'zone-x'}})
    assert resp.status_code == 400, resp.text
    for server in (asked, anywhere, lost):
        user.conn.compute.delete_server(server.id)
        user.wait_gone(server.id)
    resp = admin.post('/os-aggregates/%s/action' % aggregate_id,
                      json={'remove_host': {'host': CONF.host}})
    assert resp.status_code == 200, resp.text
    back = user.boot()
    assert user.server(back.id)['OS-EXT-AZ:availability_zone'] == \
        CONF.default_availability_zone
