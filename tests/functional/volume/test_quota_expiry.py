"""Expired quota reservations are rolled back, except under work in flight.

The sweep is the volume service's own periodic task, called directly
rather than waiting for its interval.
"""

from tests.functional import helpers
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume as db_volumes


def _reserve(project, gigabytes, resource_id=None, expire_seconds=-1):
    # A negative lifetime: the reservation is already past its expiry.
    return db_quotas.reserve(helpers.admin_context(), project,
                             {'gigabytes': gigabytes}, {'gigabytes': -1},
                             expire_seconds, resource_id=resource_id)


def test_expired_reservation_is_rolled_back(aio):
    project = aio.http().project
    expired = _reserve(project, 5)
    fresh = _reserve(project, 2, expire_seconds=3600)
    assert helpers.usage(project)['gigabytes'] == (0, 7)

    aio.impl.volume_service._expire_reservations()

    assert helpers.usage(project)['gigabytes'] == (0, 2)
    # Settling the expired one again (a late commit) changes nothing.
    db_quotas.commit(helpers.admin_context(), expired)
    assert helpers.usage(project)['gigabytes'] == (0, 2)
    db_quotas.rollback(helpers.admin_context(), fresh)
    assert helpers.usage(project)['gigabytes'] == (0, 0)


def test_reservation_of_an_extend_in_flight_is_kept(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    # The volume as an extend left it when its manager went away.
    assert db_volumes.conditional_update(
        helpers.admin_context(), volume['id'],
        {'status': 'extending', 'previous_status': 'available'},
        ['available'])
    reservations = _reserve(http.project, 1, resource_id=volume['id'])

    aio.impl.volume_service._expire_reservations()

    assert helpers.usage(http.project)['gigabytes'] == (1, 1)
    assert db_quotas.get_reservations_for(
        helpers.admin_context(), volume['id']) == reservations
    # Its owner settles it: here, a reset of the status gives it back.
    admin = aio.http('admin', http.project)
    resp = admin.post('/volumes/%s/action' % volume['id'],
                      json={'os-reset_status': {'status': 'available'}})
    assert resp.status_code == 202, resp.text
    assert helpers.usage(http.project)['gigabytes'] == (1, 0)
