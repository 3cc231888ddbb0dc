"""PUT /os-services/{action}: enable, disable (with a reason), freeze and
thaw, as Cinder answers them; raced (two freezes), refused with nothing
changed."""

import uuid

import pytest
import sqlalchemy as sa

from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh
from tether.db.volume import models
from tether.db.volume import service as db_services
from tether.db import session as db_session
from tether.volume import manager as volume_manager
from tether.volume import scheduler

LATEST = '3.71'


@pytest.fixture
def backend(aio):
    """A volume service record in a zone of its own (the aio's own
    backend is not disturbed), with room; removed afterwards."""
    ctx = helpers.admin_context()
    zone = 'zone-' + uuid.uuid4().hex[:8]
    host = 'act-%s@b' % uuid.uuid4().hex[:6]
    service_id = db_services.register(ctx, host, volume_manager.BINARY,
                                      'tether-volume', zone, '1.0', '1.0')
    db_services.heartbeat(ctx, service_id, {'pools': [{
        'pool_name': 'p', 'total_capacity_gb': 100,
        'free_capacity_gb': 100, 'reserved_percentage': 0}]})
    yield host, zone
    with db_session.VOLUME.get_context_manager().writer.using(ctx):
        ctx.session.execute(sa.delete(models.Service).where(
            models.Service.id == service_id))


def _admin(aio):
    return aio.http('admin', 'admin', version=LATEST)


def _service(http, host):
    [svc] = [s for s in http.get('/os-services?host=%s' % host).json()[
        'services'] if s['host'] == host]
    return svc


def test_disable_with_a_reason_then_enable(aio, backend):
    host, zone = backend
    http = _admin(aio)
    ctx = helpers.admin_context()
    resp = http.put('/os-services/disable-log-reason', json={
        'host': host, 'binary': 'cinder-volume',
        'disabled_reason': ' maintenance '})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'host': host, 'service': '',
                           'binary': 'cinder-volume', 'status': 'disabled',
                           'disabled': True, 'disabled_reason': 'maintenance'}
    svc = _service(http, host)
    assert (svc['status'], svc['disabled_reason']) == ('disabled',
                                                       'maintenance')
    # No volume is placed on it.
    assert scheduler.choose_backend(ctx, 1, zone) is None

    resp = http.put('/os-services/enable', json={
        'host': host, 'service': 'cinder-volume'})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'host': host, 'service': 'cinder-volume',
                           'binary': '', 'status': 'enabled',
                           'disabled': False, 'disabled_reason': None}
    svc = _service(http, host)
    assert (svc['status'], svc['disabled_reason']) == ('enabled', None)
    assert scheduler.choose_backend(ctx, 1, zone) == host + '#p'

    resp = http.put('/os-services/disable', json={
        'host': host, 'binary': 'cinder-volume'})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'host': host, 'service': '',
                           'binary': 'cinder-volume', 'status': 'disabled',
                           'disabled': True}
    assert _service(http, host)['status'] == 'disabled'


def test_refusals_change_nothing(aio, backend):
    host, _zone = backend
    http = _admin(aio)
    for path, body, status in (
            ('enable', {'host': 'nowhere', 'binary': 'cinder-volume'}, 404),
            ('disable', {'host': host, 'binary': 'no-binary'}, 404),
            ('disable', {'host': host}, 400),
            ('disable', {'binary': 'cinder-volume'}, 400),
            ('disable-log-reason', {'host': host, 'binary': 'cinder-volume',
                                    'disabled_reason': None}, 400),
            ('disable-log-reason', {'host': host, 'binary': 'cinder-volume',
                                    'disabled_reason': '  '}, 400),
            ('disable-log-reason', {'host': host,
                                    'binary': 'cinder-volume'}, 400),
            ('disable', {'host': host, 'binary': 'cinder-volume',
                         'color': 'red'}, 400),
            ('freeze', {'host': 'nowhere'}, 400),
            ('freeze', {}, 400),
            ('thaw', {'host': host}, 400),
            ('failover', {'host': host}, 404)):
        resp = http.put('/os-services/' + path, json=body)
        assert resp.status_code == status, (path, body, resp.text)
    svc = _service(http, host)
    assert (svc['status'], svc['disabled_reason'], svc['frozen']) == (
        'enabled', None, False)
    member = aio.http(version=LATEST)
    resp = member.put('/os-services/disable', json={
        'host': host, 'binary': 'cinder-volume'})
    assert resp.status_code == 403
    assert member.put('/os-services/freeze',
                      json={'host': host}).status_code == 403


def test_two_freezes_at_once_one_wins(aio, backend):
    host, zone = backend
    for _ in range(3):
        results = helpers.race([
            lambda: _admin(aio).put('/os-services/freeze',
                                    json={'host': host})
            for _ in range(2)])
        assert sorted(r.status_code for r in results) == [200, 400], [
            r.text for r in results]
        assert _service(_admin(aio), host)['frozen'] is True
        assert scheduler.choose_backend(helpers.admin_context(), 1,
                                        zone) is None
        resp = _admin(aio).put('/os-services/thaw', json={'host': host})
        assert resp.status_code == 200, resp.text
        assert _service(_admin(aio), host)['frozen'] is False


def test_a_frozen_backend_keeps_its_volumes_and_snapshots(aio, wait):
    http = aio.http(version=LATEST)
    admin = _admin(aio)
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = sh.snapshot(http, volume['id'], wait_for=wait)
    host = helpers.db_volume(volume['id']).host.partition('#')[0]
    resp = admin.put('/os-services/freeze', json={'host': host})
    assert resp.status_code == 200, resp.text
    try:
        assert _service(admin, host)['frozen'] is True
        for resp in (http.delete('/volumes/%s' % volume['id']),
                     http.delete('/snapshots/%s' % snapshot['id']),
                     http.post('/snapshots', json={'snapshot': {
                         'volume_id': volume['id']}})):
            assert resp.status_code == 400, resp.text
            assert 'frozen' in resp.json()['badRequest']['message']
        # Nothing is placed on it.
        resp = http.post('/volumes', json={'volume': {'size': 1}})
        assert resp.json()['volume']['status'] == 'error'
        assert helpers.db_volume(volume['id']).status == 'available'
        assert sh.usage(http.project)['snapshots'] == 1
    finally:
        resp = admin.put('/os-services/thaw', json={'host': host})
        assert resp.status_code == 200, resp.text
    assert http.delete('/snapshots/%s' % snapshot['id']).status_code == 202
    sh.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert http.delete('/volumes/%s' % volume['id']).status_code == 202
