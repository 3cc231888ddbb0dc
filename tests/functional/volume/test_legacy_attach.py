"""Cinder's legacy attach actions over HTTP (openstacksdk where it has
them): os-reserve, os-unreserve, os-begin_detaching, os-roll_detaching.

Real API, database and volume service; an attached volume is made with
the attachments API (create with a connector, complete).
"""

import uuid

import openstack
import pytest
import sqlalchemy as sa

from tests.functional import helpers
from tether.db import session as db_session
from tether.db.volume import models

UNKNOWN = str(uuid.UUID(int=11))
MULTIATTACH = {'multiattach': '<is> True'}
NAMES = ('os-reserve', 'os-unreserve', 'os-begin_detaching',
         'os-roll_detaching')


def _rows(volume_id):
    """(attach_status, connector) of the volume's attachment rows, from
    the database itself."""
    A = models.VolumeAttachment
    with db_session.VOLUME.get_engine().connect() as conn:
        return sorted(conn.execute(
            sa.select(A.attach_status, A.connector)
            .where(A.volume_id == volume_id)))


def _state(volume_id):
    row = helpers.db_volume(volume_id)
    return row.status, row.attach_status, _rows(volume_id)


def _volume(conn, wait, volume_type=None):
    attrs = {'size': 1}
    if volume_type:
        attrs['volume_type'] = volume_type
    volume = conn.block_storage.create_volume(**attrs)
    return conn.block_storage.wait_for_status(volume, 'available',
                                              interval=0.05, wait=30)


def _attached(aio, conn, volume):
    """Attach through the attachments API: the volume ends in-use."""
    http = aio.http(conn.test_user, conn.test_project, version='3.44')
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume.id, 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'legacy-' + uuid.uuid4().hex[:8],
                      'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    resp = http.post('/attachments/%s/action' % attachment['id'],
                     json={'os-complete': {}})
    assert resp.status_code == 204, resp.text
    assert conn.block_storage.get_volume(volume).status == 'in-use'
    return attachment


def _http(aio, conn):
    return aio.http(conn.test_user, conn.test_project)


def _act(http, volume_id, name, value=None):
    return http.post('/volumes/%s/action' % volume_id, json={name: value})


def _refused(resp, *words):
    assert resp.status_code == 400, resp.text
    message = resp.json()['badRequest']['message']
    for word in words:
        assert word in message, message
    return message


def _status(conn, volume):
    return conn.block_storage.get_volume(volume).status


# os-reserve, os-unreserve ----------------------------------------------------

def test_reserve_then_unreserve(user, wait):
    volume = _volume(user, wait)
    user.block_storage.reserve_volume(volume)
    assert _status(user, volume) == 'attaching'
    # The reservation is an attachment without a connector.
    assert _rows(volume.id) == [('attaching', None)]
    user.block_storage.unreserve_volume(volume)
    assert _status(user, volume) == 'available'
    assert _state(volume.id) == ('available', 'detached', [])
    user.block_storage.delete_volume(volume)


def test_reserve_takes_an_empty_object_as_tempest_sends(aio, user, wait):
    volume = _volume(user, wait)
    http = _http(aio, user)
    assert _act(http, volume.id, 'os-reserve', {}).status_code == 202
    assert _status(user, volume) == 'attaching'
    assert _act(http, volume.id, 'os-unreserve', {}).status_code == 202
    assert _status(user, volume) == 'available'


def test_reserve_of_a_reserved_volume_is_400_naming_its_status(
        aio, user, wait):
    volume = _volume(user, wait)
    user.block_storage.reserve_volume(volume)
    before = _state(volume.id)
    _refused(_act(_http(aio, user), volume.id, 'os-reserve'),
             'must be available', 'status is attaching')
    assert _state(volume.id) == before


def test_reserve_of_an_attached_volume_is_400(aio, user, wait):
    volume = _volume(user, wait)
    _attached(aio, user, volume)
    before = _state(volume.id)
    _refused(_act(_http(aio, user), volume.id, 'os-reserve'),
             'status is in-use')
    assert _state(volume.id) == before
    with pytest.raises(openstack.exceptions.BadRequestException):
        user.block_storage.reserve_volume(volume)
    assert _state(volume.id) == before


def test_reserve_of_an_attached_multiattach_volume(aio, user, wait):
    name = 'multi-' + uuid.uuid4().hex[:8]
    aio.admin().block_storage.create_type(name=name, extra_specs=MULTIATTACH)
    volume = _volume(user, wait, name)
    _attached(aio, user, volume)
    user.block_storage.reserve_volume(volume)
    # The attached attachment decides the status (as tether's volume
    # follows its attachments).
    assert [s for s, _ in _rows(volume.id)] == ['attached', 'attaching']
    assert _status(user, volume) == 'in-use'
    user.block_storage.unreserve_volume(volume)
    assert _status(user, volume) == 'in-use'
    assert [s for s, _ in _rows(volume.id)] == ['attached']


def test_reserve_of_a_volume_in_error_is_400(aio, user, wait):
    volume = _volume(user, wait)
    admin = aio.http('admin', 'admin')
    resp = _act(admin, volume.id, 'os-reset_status', {'status': 'error'})
    assert resp.status_code == 202, resp.text
    _refused(_act(_http(aio, user), volume.id, 'os-reserve'),
             'status is error')
    assert _state(volume.id) == ('error', 'detached', [])


def test_unreserve_without_a_reservation_changes_nothing(aio, user, wait):
    volume = _volume(user, wait)
    user.block_storage.unreserve_volume(volume)
    assert _state(volume.id) == ('available', 'detached', [])
    _attached(aio, user, volume)
    before = _state(volume.id)
    user.block_storage.unreserve_volume(volume)
    assert _state(volume.id) == before


def test_an_attachment_create_on_a_reserved_volume_is_400(aio, user, wait):
    volume = _volume(user, wait)
    user.block_storage.reserve_volume(volume)
    before = _state(volume.id)
    http = aio.http(user.test_user, user.test_project, version='3.44')
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume.id, 'instance_uuid': str(uuid.uuid4())}})
    _refused(resp, 'attaching')
    assert _state(volume.id) == before


def test_two_reserves_at_once_one_wins(aio, user, wait):
    volume = _volume(user, wait)
    clients = [_http(aio, user) for _ in range(2)]
    results = helpers.race([
        lambda c=c: _act(c, volume.id, 'os-reserve') for c in clients])
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 400], [r.text for r in results]
    for r in results:
        if r.status_code == 400:
            _refused(r, 'status is attaching')
    assert _state(volume.id) == ('attaching', 'attaching',
                                 [('attaching', None)])


def test_a_restart_of_the_volume_service_keeps_the_reservation(
        aio, user, wait):
    """The reconciliation on start leaves a reservation alone (it has
    no connector: no connect was under way)."""
    volume = _volume(user, wait)
    user.block_storage.reserve_volume(volume)
    aio.restart_volume_service()
    assert _state(volume.id) == ('attaching', 'attaching',
                                 [('attaching', None)])
    user.block_storage.unreserve_volume(volume)
    assert _state(volume.id) == ('available', 'detached', [])


# os-begin_detaching, os-roll_detaching ---------------------------------------

def test_begin_then_roll_detaching(aio, user, wait):
    volume = _volume(user, wait)
    _attached(aio, user, volume)
    user.block_storage.begin_volume_detaching(volume)
    assert _status(user, volume) == 'detaching'
    user.block_storage.abort_volume_detaching(volume)
    assert _status(user, volume) == 'in-use'
    assert [s for s, _ in _rows(volume.id)] == ['attached']


def test_begin_detaching_then_the_attachment_is_deleted(aio, user, wait):
    volume = _volume(user, wait)
    attachment = _attached(aio, user, volume)
    user.block_storage.begin_volume_detaching(volume)
    user.block_storage.delete_attachment(attachment['id'])
    assert _state(volume.id) == ('available', 'detached', [])


def test_begin_detaching_of_an_available_volume_is_400(aio, user, wait):
    volume = _volume(user, wait)
    _refused(_act(_http(aio, user), volume.id, 'os-begin_detaching'),
             'status is available', 'in-use and attached')
    assert _state(volume.id) == ('available', 'detached', [])


def test_begin_detaching_twice_is_400_naming_detaching(aio, user, wait):
    volume = _volume(user, wait)
    _attached(aio, user, volume)
    user.block_storage.begin_volume_detaching(volume)
    before = _state(volume.id)
    with pytest.raises(openstack.exceptions.BadRequestException):
        user.block_storage.begin_volume_detaching(volume)
    _refused(_act(_http(aio, user), volume.id, 'os-begin_detaching'),
             'status is detaching')
    assert _state(volume.id) == before


def test_roll_detaching_of_a_volume_not_detaching_changes_nothing(
        user, wait):
    volume = _volume(user, wait)
    user.block_storage.abort_volume_detaching(volume)
    assert _state(volume.id) == ('available', 'detached', [])


def test_two_begin_detachings_at_once_one_wins(aio, user, wait):
    volume = _volume(user, wait)
    _attached(aio, user, volume)
    clients = [_http(aio, user) for _ in range(2)]
    results = helpers.race([
        lambda c=c: _act(c, volume.id, 'os-begin_detaching')
        for c in clients])
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 400], [r.text for r in results]
    assert helpers.db_volume(volume.id).status == 'detaching'


# Every action ----------------------------------------------------------------

@pytest.mark.parametrize('name', NAMES)
def test_an_unknown_volume_is_404(aio, name):
    resp = _act(aio.http(), UNKNOWN, name)
    assert resp.status_code == 404, resp.text


@pytest.mark.parametrize('name', NAMES)
def test_another_projects_volume_is_404_and_unchanged(aio, user, wait,
                                                      name):
    volume = _volume(user, wait)
    resp = _act(aio.http(), volume.id, name)
    assert resp.status_code == 404, resp.text
    assert _state(volume.id) == ('available', 'detached', [])


@pytest.mark.parametrize('name', NAMES)
def test_a_body_with_arguments_is_400(aio, user, wait, name):
    volume = _volume(user, wait)
    resp = _act(_http(aio, user), volume.id, name, {'force': True})
    assert resp.status_code == 400, resp.text
    assert _state(volume.id) == ('available', 'detached', [])
