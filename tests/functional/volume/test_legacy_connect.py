"""Cinder's legacy attach and connection actions over HTTP (openstacksdk
where it has them): os-attach, os-detach, os-initialize_connection,
os-terminate_connection, os-force_detach, in the order the compute
service used them before the attachments API.

Real API, database, RPC and NFS driver (on the local share).
"""

import uuid

import openstack
import pytest

from tests.functional import helpers
from tests.functional.volume import test_legacy_attach as legacy

UNKNOWN = str(uuid.UUID(int=12))
NAMES = ('os-attach', 'os-detach', 'os-initialize_connection',
         'os-terminate_connection', 'os-force_detach')
BODIES = {
    'os-attach': {'instance_uuid': str(uuid.UUID(int=13)),
                  'mountpoint': '/dev/vdb'},
    'os-detach': {},
    'os-initialize_connection': {'connector': {'host': 'h'}},
    'os-terminate_connection': {'connector': {'host': 'h'}},
    'os-force_detach': {},
}


def _connector(host=None):
    host = host or 'legacy-' + uuid.uuid4().hex[:8]
    return {'host': host, 'initiator': 'iqn.2026-11.test:' + host,
            'platform': 'x86_64', 'os_type': 'linux', 'multipath': False,
            'mountpoint': '/dev/vdb'}


def _attachments(conn, volume):
    return [(a['server_id'], a['device'], a['attachment_id'])
            for a in conn.block_storage.get_volume(volume).attachments]


def _statuses(volume_id):
    return [s for s, _ in legacy._rows(volume_id)]


def test_the_compute_services_old_attach_and_detach(aio, user, wait):
    volume = legacy._volume(user, wait)
    bs = user.block_storage
    connector = _connector()
    instance = str(uuid.uuid4())

    bs.reserve_volume(volume)
    info = bs.init_volume_attachment(volume, connector)
    assert info['driver_volume_type'] == 'nfs'
    assert info['data']['name'] == 'volume-%s' % volume.id
    assert info['data']['export'] == aio.share_dir
    assert info['enforce_multipath'] is False
    assert legacy._status(user, volume) == 'attaching'
    assert _statuses(volume.id) == ['attaching']

    bs.attach_volume(volume, '/dev/vdb', instance=instance)
    assert legacy._status(user, volume) == 'in-use'
    ((server, device, attachment_id),) = _attachments(user, volume)
    assert (server, device) == (instance, '/dev/vdb')
    assert bs.get_attachment(attachment_id).connection_info['data'][
        'name'] == 'volume-%s' % volume.id

    bs.begin_volume_detaching(volume)
    assert legacy._status(user, volume) == 'detaching'
    bs.terminate_volume_attachment(volume, connector)
    assert legacy._state(volume.id) == ('available', 'detached', [])
    # The detach that follows finds nothing left, as Cinder's does.
    bs.detach_volume(volume, attachment_id)
    assert legacy._state(volume.id) == ('available', 'detached', [])
    bs.delete_volume(volume)


def test_attach_without_reserve_then_detach(user, wait):
    volume = legacy._volume(user, wait)
    bs = user.block_storage
    bs.attach_volume(volume, '/dev/sdb', host_name='bare-metal-1')
    assert legacy._status(user, volume) == 'in-use'
    assert _statuses(volume.id) == ['attached']
    bs.detach_volume(volume, None)
    assert legacy._state(volume.id) == ('available', 'detached', [])


def test_attach_to_the_same_instance_again_changes_nothing(aio, user, wait):
    volume = legacy._volume(user, wait)
    instance = str(uuid.uuid4())
    user.block_storage.attach_volume(volume, '/dev/vdb', instance=instance)
    before = legacy._state(volume.id)
    user.block_storage.attach_volume(volume, '/dev/vdc', instance=instance)
    assert legacy._state(volume.id) == before


def test_attach_of_an_attached_volume_is_400_naming_its_status(
        aio, user, wait):
    volume = legacy._volume(user, wait)
    user.block_storage.attach_volume(volume, '/dev/vdb',
                                     instance=str(uuid.uuid4()))
    before = legacy._state(volume.id)
    resp = legacy._act(legacy._http(aio, user), volume.id, 'os-attach',
                       {'instance_uuid': str(uuid.uuid4()),
                        'mountpoint': '/dev/vdb'})
    legacy._refused(resp, 'in-use')
    assert legacy._state(volume.id) == before


def test_attach_of_a_volume_in_error_is_400(aio, user, wait):
    volume = legacy._volume(user, wait)
    admin = aio.http('admin', 'admin')
    assert legacy._act(admin, volume.id, 'os-reset_status',
                       {'status': 'error'}).status_code == 202
    resp = legacy._act(legacy._http(aio, user), volume.id, 'os-attach',
                       {'host_name': 'h', 'mountpoint': '/dev/vdb'})
    legacy._refused(resp, 'is error')
    assert legacy._state(volume.id) == ('error', 'detached', [])


@pytest.mark.parametrize('body', [
    {'mountpoint': '/dev/vdb'},
    {'instance_uuid': 'not-a-uuid', 'mountpoint': '/dev/vdb'},
    {'host_name': 'h', 'mountpoint': '/dev/vdb', 'mode': 'wo'},
    {'host_name': 'h'},
])
def test_attach_bodies_cinder_refuses_are_400(aio, user, wait, body):
    volume = legacy._volume(user, wait)
    resp = legacy._act(legacy._http(aio, user), volume.id, 'os-attach',
                       body)
    assert resp.status_code == 400, resp.text
    assert legacy._state(volume.id) == ('available', 'detached', [])


def test_initialize_without_a_reservation_is_400(aio, user, wait):
    volume = legacy._volume(user, wait)
    with pytest.raises(openstack.exceptions.BadRequestException):
        user.block_storage.init_volume_attachment(volume, _connector())
    resp = legacy._act(legacy._http(aio, user), volume.id,
                       'os-initialize_connection',
                       {'connector': _connector()})
    legacy._refused(resp, 'is available', 'os-reserve')
    assert legacy._state(volume.id) == ('available', 'detached', [])


def test_initialize_again_on_the_same_host_answers_the_same(user, wait):
    volume = legacy._volume(user, wait)
    connector = _connector()
    user.block_storage.reserve_volume(volume)
    first = user.block_storage.init_volume_attachment(volume, connector)
    before = legacy._state(volume.id)
    again = user.block_storage.init_volume_attachment(volume, connector)
    assert again == first
    assert legacy._state(volume.id) == before


def test_terminate_after_initialize_gives_the_volume_back(user, wait):
    volume = legacy._volume(user, wait)
    connector = _connector()
    user.block_storage.reserve_volume(volume)
    user.block_storage.init_volume_attachment(volume, connector)
    user.block_storage.terminate_volume_attachment(volume, connector)
    assert legacy._state(volume.id) == ('available', 'detached', [])


def test_terminate_on_a_host_without_a_connection_changes_nothing(
        aio, user, wait):
    volume = legacy._volume(user, wait)
    user.block_storage.reserve_volume(volume)
    user.block_storage.init_volume_attachment(volume, _connector())
    before = legacy._state(volume.id)
    user.block_storage.terminate_volume_attachment(volume, _connector())
    resp = legacy._act(legacy._http(aio, user), volume.id,
                       'os-terminate_connection', {'connector': None})
    assert resp.status_code == 202, resp.text
    assert legacy._state(volume.id) == before


def test_detach_of_a_volume_with_two_attachments_names_them(
        aio, user, wait):
    name = 'multi-' + uuid.uuid4().hex[:8]
    aio.admin().block_storage.create_type(name=name,
                                          extra_specs=legacy.MULTIATTACH)
    volume = legacy._volume(user, wait, name)
    bs = user.block_storage
    bs.attach_volume(volume, '/dev/vdb', instance=str(uuid.uuid4()))
    bs.attach_volume(volume, '/dev/vdb', instance=str(uuid.uuid4()))
    before = legacy._state(volume.id)
    resp = legacy._act(legacy._http(aio, user), volume.id, 'os-detach', {})
    legacy._refused(resp, 'has 2 attachments', 'attachment_id')
    assert legacy._state(volume.id) == before
    first = _attachments(user, volume)[0][2]
    bs.detach_volume(volume, first)
    assert _statuses(volume.id) == ['attached']
    assert legacy._status(user, volume) == 'in-use'


def test_detach_of_an_attachment_the_volume_has_not(aio, user, wait):
    volume = legacy._volume(user, wait)
    other = legacy._volume(user, wait)
    user.block_storage.attach_volume(other, '/dev/vdb', host_name='h')
    before = legacy._state(other.id)
    attachment_id = _attachments(aio.admin(), other)[0][2]
    user.block_storage.detach_volume(volume, attachment_id)
    user.block_storage.detach_volume(volume, UNKNOWN)
    assert legacy._state(volume.id) == ('available', 'detached', [])
    assert legacy._state(other.id) == before


def test_force_detach_is_an_administrators(aio, user, wait):
    volume = legacy._volume(user, wait)
    connector = _connector()
    bs = user.block_storage
    bs.reserve_volume(volume)
    bs.init_volume_attachment(volume, connector)
    bs.attach_volume(volume, '/dev/vdb', instance=str(uuid.uuid4()))
    before = legacy._state(volume.id)
    with pytest.raises(openstack.exceptions.ForbiddenException):
        bs.detach_volume(volume, None, force=True, connector=connector)
    assert legacy._state(volume.id) == before
    attachment_id = _attachments(aio.admin(), volume)[0][2]
    aio.admin().block_storage.detach_volume(volume.id, attachment_id,
                                            force=True, connector=connector)
    assert legacy._state(volume.id) == ('available', 'detached', [])


def test_two_attaches_at_once_one_wins(aio, user, wait):
    volume = legacy._volume(user, wait)
    clients = [legacy._http(aio, user) for _ in range(2)]
    results = helpers.race([
        lambda c=c: legacy._act(c, volume.id, 'os-attach', {
            'instance_uuid': str(uuid.uuid4()), 'mountpoint': '/dev/vdb'})
        for c in clients])
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 400], [r.text for r in results]
    assert legacy._state(volume.id)[:2] == ('in-use', 'attached')
    assert _statuses(volume.id) == ['attached']


def test_two_initializes_of_one_reservation_connect_it_once(aio, user, wait):
    volume = legacy._volume(user, wait)
    user.block_storage.reserve_volume(volume)
    clients = [legacy._http(aio, user) for _ in range(2)]
    results = helpers.race([
        lambda c=c: legacy._act(c, volume.id, 'os-initialize_connection',
                                {'connector': _connector()})
        for c in clients])
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 400], [r.text for r in results]
    assert _statuses(volume.id) == ['attaching']


@pytest.mark.parametrize('name', NAMES)
def test_an_unknown_volume_is_404(aio, name):
    resp = legacy._act(aio.http('admin', 'admin'), UNKNOWN, name,
                       BODIES[name])
    assert resp.status_code == 404, resp.text


@pytest.mark.parametrize('name', NAMES)
def test_another_projects_volume_is_404_and_unchanged(aio, user, wait,
                                                      name):
    volume = legacy._volume(user, wait)
    resp = legacy._act(aio.http(), volume.id, name, BODIES[name])
    assert resp.status_code == 404, resp.text
    assert legacy._state(volume.id) == ('available', 'detached', [])


def test_a_read_only_volume_connects_read_only(user, wait):
    """os-update_readonly_flag overrides the mode the connector asks for,
    through the legacy connect as through an attachment update."""
    volume = legacy._volume(user, wait)
    bs = user.block_storage
    bs.set_volume_readonly(volume, True)
    bs.reserve_volume(volume)
    info = bs.init_volume_attachment(volume, dict(_connector(), mode='rw'))
    assert info['data']['access_mode'] == 'ro'
    bs.unreserve_volume(volume)
    bs.terminate_volume_attachment(volume, _connector())
