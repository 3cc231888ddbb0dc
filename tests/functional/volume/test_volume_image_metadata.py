"""A volume's image metadata over HTTP and openstacksdk
(os-set_image_metadata, os-show_image_metadata, os-unset_image_metadata):
set, read, remove, remove again (404), refused states and races."""

import uuid

import openstack
import pytest

from tests.functional import helpers
from tests.functional.image_helpers import upload
from tests.functional.image_helpers import wait_status

TEMPEST_KEYS = {'image_id': '5137a025-3c5f-43c1-bc64-5f41270040a5',
                'image_name': 'image',
                'kernel_id': '6ff710d2-942b-4d6b-9168-8c9cc2404ab1',
                'ramdisk_id': 'somedisk'}


def _act(http, volume_id, body):
    return http.post('/volumes/%s/action' % volume_id, json=body)


def _show(http, volume_id):
    resp = _act(http, volume_id, {'os-show_image_metadata': {}})
    assert resp.status_code == 200, resp.text
    assert list(resp.json()) == ['metadata']
    return resp.json()['metadata']


@pytest.fixture
def member(aio):
    return aio.http(version='3.71')


@pytest.fixture
def volume(member, wait):
    return helpers.create_volume(member, size=1, wait_for=wait)


def test_image_metadata_story(aio, wait):
    # As Tempest: a volume made from an image; its image's keys
    # overwritten and others added, one removed.
    conn = aio.sdk()
    image = upload(conn, helpers.disk_bytes(b'img-meta'), os_distro='tiny')
    vol = wait_status(conn, conn.block_storage.create_volume(
        size=1, image_id=image.id), 'available', wait)
    http = aio.http(conn.test_user, conn.test_project)
    reader = aio.http('reader-' + uuid.uuid4().hex[:6], conn.test_project,
                      ['reader'])
    before = _show(reader, vol.id)
    assert before['image_id'] == image.id
    assert before['os_distro'] == 'tiny'

    resp = _act(http, vol.id, {'os-set_image_metadata': {
        'metadata': TEMPEST_KEYS}})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'metadata': dict(before, **TEMPEST_KEYS)}
    shown = reader.get('/volumes/%s' % vol.id).json()['volume']
    assert shown['volume_image_metadata'] == dict(before, **TEMPEST_KEYS)

    resp = _act(http, vol.id, {'os-unset_image_metadata': {
        'key': 'ramdisk_id'}})
    assert resp.status_code == 200, resp.text
    assert resp.content == b''
    after = _show(reader, vol.id)
    assert 'ramdisk_id' not in after
    assert after['kernel_id'] == TEMPEST_KEYS['kernel_id']
    # cinderclient sends null.
    resp = _act(reader, vol.id, {'os-show_image_metadata': None})
    assert resp.json() == {'metadata': after}

    resp = _act(http, vol.id, {'os-unset_image_metadata': {
        'key': 'ramdisk_id'}})
    assert resp.status_code == 404, resp.text
    assert 'ramdisk_id' in resp.json()['itemNotFound']['message']


def test_sdk_set_and_delete(aio, wait):
    conn = aio.sdk()
    vol = wait_status(conn, conn.block_storage.create_volume(size=1),
                      'available', wait)
    conn.block_storage.set_volume_image_metadata(vol, hw_disk_bus='scsi',
                                                 os_type='linux')
    got = conn.block_storage.get_volume(vol.id).volume_image_metadata
    assert got == {'hw_disk_bus': 'scsi', 'os_type': 'linux'}
    conn.block_storage.delete_volume_image_metadata(vol, keys=['os_type'])
    got = conn.block_storage.get_volume(vol.id).volume_image_metadata
    assert got == {'hw_disk_bus': 'scsi'}
    with pytest.raises(openstack.exceptions.NotFoundException):
        conn.block_storage.delete_volume_image_metadata(vol,
                                                        keys=['os_type'])


@pytest.mark.parametrize('body, field', [
    ({'os-set_image_metadata': {}}, "'metadata' is a required property"),
    ({'os-set_image_metadata': {'metadata': {'k': 1}}},
     'os-set_image_metadata/metadata/k'),
    ({'os-set_image_metadata': {'metadata': {'k': 'v' * 256}}},
     'os-set_image_metadata/metadata/k'),
    ({'os-set_image_metadata': {'metadata': {'bad key!': 'v'}}},
     'bad key!'),
    ({'os-set_image_metadata': {'metadata': []}},
     'os-set_image_metadata/metadata'),
    ({'os-set_image_metadata': {'metadata': {}, 'x': 1}}, 'x'),
    ({'os-unset_image_metadata': {}}, "'key' is a required property"),
    ({'os-unset_image_metadata': {'key': ''}},
     'os-unset_image_metadata/key'),
    ({'os-unset_image_metadata': {'key': 'k' * 256}},
     'os-unset_image_metadata/key'),
    ({'os-show_image_metadata': {'x': 1}}, 'os-show_image_metadata'),
])
def test_bad_input_gets_400_naming_the_field(member, volume, body, field):
    resp = _act(member, volume['id'], body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


@pytest.mark.parametrize('body', [
    {'os-set_image_metadata': {'metadata': {'k': 'v'}}},
    {'os-unset_image_metadata': {'key': 'k'}},
    {'os-show_image_metadata': {}},
])
def test_unknown_or_other_projects_volume_is_404(aio, member, volume, body):
    for http, volume_id in ((member, str(uuid.uuid4())),
                            (aio.http(), volume['id'])):
        resp = _act(http, volume_id, body)
        assert resp.status_code == 404, resp.text
        assert volume_id in resp.json()['itemNotFound']['message']


def test_reader_may_show_not_change(aio, member, volume):
    _act(member, volume['id'], {'os-set_image_metadata': {
        'metadata': {'k': 'v'}}})
    reader = aio.http(roles=['reader'], project=member.project)
    for body in ({'os-set_image_metadata': {'metadata': {'k': 'x'}}},
                 {'os-unset_image_metadata': {'key': 'k'}}):
        resp = _act(reader, volume['id'], body)
        assert resp.status_code == 403, resp.text
    assert _show(reader, volume['id']) == {'k': 'v'}


@pytest.mark.parametrize('status', ['uploading', 'maintenance',
                                    'downloading', 'creating'])
def test_refused_while_the_volume_is_busy(aio, member, volume, status):
    _act(member, volume['id'], {'os-set_image_metadata': {
        'metadata': {'k': 'v'}}})
    admin = aio.http('admin', 'admin')
    resp = _act(admin, volume['id'], {'os-reset_status': {'status': status}})
    assert resp.status_code == 202, resp.text
    for body in ({'os-set_image_metadata': {'metadata': {'k': 'x'}}},
                 {'os-unset_image_metadata': {'key': 'k'}}):
        resp = _act(member, volume['id'], body)
        assert resp.status_code == 400, resp.text
        assert status in resp.json()['badRequest']['message']
    assert _show(member, volume['id']) == {'k': 'v'}
    _act(admin, volume['id'], {'os-reset_status': {'status': 'available'}})


def test_concurrent_unsets_one_wins(aio, member, volume):
    _act(member, volume['id'], {'os-set_image_metadata': {
        'metadata': {'k': 'v', 'keep': 'x'}}})
    clients = [aio.http(member.user, member.project) for _ in range(4)]
    results = helpers.race([
        lambda c=c: _act(c, volume['id'],
                         {'os-unset_image_metadata': {'key': 'k'}})
        for c in clients])
    assert sorted(r.status_code for r in results) == [200, 404, 404, 404], \
        [getattr(r, 'text', r) for r in results]
    assert _show(member, volume['id']) == {'keep': 'x'}


def test_concurrent_sets_all_land(aio, member, volume):
    clients = [aio.http(member.user, member.project) for _ in range(4)]
    results = helpers.race([
        lambda c=c, i=i: _act(c, volume['id'], {'os-set_image_metadata': {
            'metadata': {'k%d' % i: str(i)}}})
        for i, c in enumerate(clients)])
    assert [r.status_code for r in results] == [200] * 4, \
        [getattr(r, 'text', r) for r in results]
    assert _show(member, volume['id']) == {'k%d' % i: str(i)
                                           for i in range(4)}
