"""os-volume_upload_image: a volume becomes a new image in the aio's real
Glance, with the real qemu-img, as ``openstack image create --volume`` and
openstacksdk's ``upload_volume_to_image`` ask for it.

Each refusal is checked for what it leaves: the volume as it was, and no
image of the project in Glance.
"""

import datetime
import os
import subprocess
import uuid

from oslo_config import cfg
from oslo_utils import timeutils
import pytest

from tests.functional import cli
from tests.functional import helpers
from tests.functional.helpers import disk_bytes
from tests.functional.helpers import MiB
from tests.functional.image_helpers import conversion_dir_is_empty
from tests.functional.image_helpers import upload
from tests.functional.image_helpers import volume_content
from tests.functional.image_helpers import wait_status
from tests import qemu_guest
from tether.db.volume import volume as db_volumes
from tether.volume.ops import image_upload

CONF = cfg.CONF
LATEST = '3.71'
GiB = helpers.GiB


def _volume_from_image(conn, wait, data=None, **image_attrs):
    image = upload(conn, data or disk_bytes(b'upload me'), **image_attrs)
    volume = conn.block_storage.create_volume(size=1, image_id=image.id)
    return wait_status(conn, volume, 'available', wait), image


def _action(http, volume_id, body):
    return http.post('/volumes/%s/action' % volume_id,
                     json={'os-volume_upload_image': body})


def _images(conn):
    """The images of the connection's project, by id."""
    return {i.id: i for i in conn.image.images(owner=conn.test_project)}


def _wait_image(conn, image_id, wait):
    return wait(lambda: (i := conn.image.get_image(image_id))
                .status == 'active' and i, timeout=60,
                what='image %s active' % image_id)


def _raw_image(conn, image_id):
    """The image as Glance's JSON has it (every property a key)."""
    return conn.image.get('/images/%s' % image_id).json()


def _image_bytes(conn, image_id):
    return conn.image.download_image(image_id).content


def _guest_bytes(tmp_path, data, disk_format):
    """What a guest reads from image data of ``disk_format``."""
    path = tmp_path / ('image.' + disk_format)
    path.write_bytes(data)
    subprocess.run(['qemu-img', 'convert', '-f', disk_format, '-O', 'raw',
                    str(path), str(path) + '.raw'], check=True,
                   capture_output=True)
    return (tmp_path / ('image.%s.raw' % disk_format)).read_bytes()


# Uploaded ------------------------------------------------------------------

def test_a_volume_uploaded_with_openstacksdk(aio, wait, tmp_path):
    conn = aio.sdk()
    volume, source = _volume_from_image(
        conn, wait, os_distro='tether-tiny', hw_disk_bus='scsi', min_ram=64)

    answer = conn.block_storage.upload_volume_to_image(
        volume, 'from-volume', disk_format='raw', container_format='bare')

    assert answer['status'] == 'uploading'
    assert answer['id'] == volume.id
    assert (answer['image_name'], answer['disk_format'],
            answer['container_format']) == ('from-volume', 'raw', 'bare')
    assert answer['size'] == 1
    assert answer['volume_type']['name'] == '__DEFAULT__'
    image = _wait_image(conn, answer['image_id'], wait)
    wait_status(conn, volume, 'available', wait)
    # The caller's project owns it; it holds what a guest reads from the
    # volume, byte for byte.
    assert image.owner == conn.test_project
    assert _image_bytes(conn, image.id) == volume_content(aio, volume.id)
    assert image.size == GiB
    # The properties of the volume's image come along; the attributes of
    # the old image and the signature namespaces do not.
    raw = _raw_image(conn, image.id)
    assert (raw['os_distro'], raw['hw_disk_bus']) == ('tether-tiny', 'scsi')
    for key in ('image_id', 'image_name', 'signature_verified',
                'virtual_size'):
        assert raw.get(key) != str(getattr(source, key, None)), key
    assert 'image_id' not in raw and 'signature_verified' not in raw
    assert image.checksum != source.checksum
    assert image.min_ram == 0
    assert conversion_dir_is_empty(aio)
    assert helpers.db_volume(volume.id).admin_metadata == {'format': 'raw'}


def test_a_qcow2_image_of_an_empty_volume(aio, wait, tmp_path):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    volume = helpers.create_volume(http, wait_for=wait)
    with open(aio.volume_path(volume['id']), 'r+b') as f:
        f.seek(5 * MiB)
        f.write(b'written by a guest')

    resp = _action(http, volume['id'], {'image_name': 'empty',
                                        'disk_format': 'qcow2'})

    assert resp.status_code == 202, resp.text
    answer = resp.json()['os-volume_upload_image']
    # At 3.1 and later: private and unprotected unless asked.
    assert (answer['visibility'], answer['protected']) == ('private', False)
    image = _wait_image(conn, answer['image_id'], wait)
    assert image.disk_format == 'qcow2'
    # A qcow2 of an almost empty volume is small; it reads as the volume.
    assert image.size < 10 * MiB
    data = _guest_bytes(tmp_path, _image_bytes(conn, image.id), 'qcow2')
    assert data == volume_content(aio, volume['id'])
    assert 'os_distro' not in _raw_image(conn, image.id)
    helpers.wait_until_status(http, volume['id'], 'available', wait)


def test_visibility_and_protected_from_3_1(aio, wait):
    admin = aio.admin()
    http = aio.http('admin', 'admin', version='3.1')
    volume = helpers.create_volume(http, wait_for=wait)
    resp = _action(http, volume['id'], {
        'image_name': 'public-' + uuid.uuid4().hex[:6],
        'visibility': 'public', 'protected': 'true'})
    assert resp.status_code == 202, resp.text
    answer = resp.json()['os-volume_upload_image']
    assert (answer['visibility'], answer['protected']) == ('public', True)
    image = _wait_image(admin, answer['image_id'], wait)
    assert (image.visibility, image.is_protected) == ('public', True)
    # Anyone sees it.
    assert aio.sdk().image.get_image(image.id).id == image.id
    admin.image.update_image(image, is_protected=False)
    admin.image.delete_image(image)
    helpers.wait_until_status(http, volume['id'], 'available', wait)


def test_openstack_image_create_volume(aio, wait, tmp_path):
    """The CLI's own command."""
    conn = aio.sdk()
    volume, _source = _volume_from_image(conn, wait)
    name = 'cli-' + uuid.uuid4().hex[:6]
    openstack = cli.CLI(aio, tmp_path, conn.test_user, conn.test_project)
    answer = openstack.json('--os-volume-api-version', '3.1', 'image',
                            'create', '--volume', volume.id, name)
    assert (answer['status'], answer['image_name']) == ('uploading', name)
    assert answer['volume_type'] == '__DEFAULT__'
    image = _wait_image(conn, answer['image_id'], wait)
    assert (image.name, image.visibility) == (name, 'private')
    conn.image.delete_image(image)
    wait_status(conn, volume, 'available', wait)


# An in-use volume ------------------------------------------------------------

def _in_use(http, wait):
    """An available volume, then attached (attachments API: a connector,
    then os-complete), as a compute host attaches it."""
    volume = helpers.create_volume(http, wait_for=wait)
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id'], 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'upload-host', 'mode': 'rw'}}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']['id']
    resp = http.post('/attachments/%s/action' % attachment,
                     json={'os-complete': None})
    assert resp.status_code == 204, resp.text
    return helpers.wait_until_status(http, volume['id'], 'in-use', wait)


@pytest.fixture
def force_upload():
    CONF.set_override('enable_force_upload', True)
    yield
    CONF.clear_override('enable_force_upload')


def test_an_in_use_volume_is_refused_without_force(aio, wait):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version='3.54')
    volume = _in_use(http, wait)
    # Without force, and with force while enable_force_upload is false
    # (its default): Cinder ignores force then.
    for body in ({'image_name': 'x'}, {'image_name': 'x', 'force': True}):
        resp = _action(http, volume['id'], body)
        assert resp.status_code == 400, resp.text
        fault = resp.json()['badRequest']
        assert fault['error_code'] == 'volume.volume.invalid_status'
        assert 'is in-use; expected available' in fault['message']
    assert helpers.db_volume(volume['id']).status == 'in-use'
    assert _images(conn) == {}


def test_a_forced_upload_of_a_volume_a_guest_holds(aio, wait, force_upload):
    """enable_force_upload: the volume's file is read while a running
    QEMU holds its write lock (qemu-img -U), and the volume is in-use
    again after."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version='3.54')
    volume = _in_use(http, wait)
    path = aio.volume_path(volume['id'])
    with open(path, 'r+b') as f:
        f.write(b'in use')
    with qemu_guest.holding(path):
        resp = _action(http, volume['id'], {'image_name': 'forced',
                                            'disk_format': 'qcow2',
                                            'force': 'True'})
        assert resp.status_code == 202, resp.text
        image_id = resp.json()['os-volume_upload_image']['image_id']
        image = _wait_image(conn, image_id, wait)
        helpers.wait_until_status(http, volume['id'], 'in-use', wait)
    assert image.disk_format == 'qcow2'
    assert b'in use' in conn.image.download_image(image).content[:10 * MiB]


# Refused ---------------------------------------------------------------------

def _unchanged(conn, volume_id, status='available', images=()):
    """The volume in ``status``, and the project has no image but
    ``images``."""
    volume = helpers.db_volume(volume_id)
    assert volume.status == status
    assert image_upload.image_state.UPLOAD_IMAGE_ID not in \
        volume.admin_metadata
    assert set(_images(conn)) == set(images)


@pytest.mark.parametrize('body,field', [
    ({}, "'image_name' is a required property"),
    ({'image_name': ''}, 'os-volume_upload_image/image_name'),
    ({'image_name': 'x', 'disk_format': 'vmdk'},
     'os-volume_upload_image/disk_format'),
    ({'image_name': 'x', 'container_format': 'ovf'},
     'os-volume_upload_image/container_format'),
    ({'image_name': 'x', 'force': 'maybe'}, 'os-volume_upload_image/force'),
    ({'image_name': 'x', 'size': 1}, "'size' was unexpected"),
], ids=['no-name', 'empty-name', 'vmdk', 'ovf', 'force-maybe', 'unknown'])
def test_bodies_the_schema_refuses(aio, wait, body, field):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    volume = helpers.create_volume(http, wait_for=wait)
    resp = _action(http, volume['id'], body)
    assert resp.status_code == 400, resp.text
    fault = resp.json()['badRequest']
    assert fault['error_code'] == 'api.validation.failed'
    assert field in fault['message']
    _unchanged(conn, volume['id'])


def test_visibility_is_a_3_1_parameter(aio, wait):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version='3.0')
    volume = helpers.create_volume(http, wait_for=wait)
    resp = _action(http, volume['id'], {'image_name': 'x',
                                        'visibility': 'private'})
    assert resp.status_code == 400, resp.text
    assert "'visibility' was unexpected" in resp.text
    _unchanged(conn, volume['id'])


def test_policies(aio, wait):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    volume = helpers.create_volume(http, wait_for=wait)
    # A reader may not upload; a member may not make a public image.
    reader = aio.http(conn.test_user, conn.test_project, roles=['reader'],
                      version=LATEST)
    resp = _action(reader, volume['id'], {'image_name': 'x'})
    assert resp.status_code == 403, resp.text
    assert 'volume_extension:volume_actions:upload_image' in resp.text
    resp = _action(http, volume['id'], {'image_name': 'x',
                                        'visibility': 'public'})
    assert resp.status_code == 403, resp.text
    assert 'volume_extension:volume_actions:upload_public' in resp.text
    # Another project's volume is not found.
    resp = _action(aio.http(version=LATEST), volume['id'],
                   {'image_name': 'x'})
    assert resp.status_code == 404, resp.text
    resp = _action(http, str(uuid.uuid4()), {'image_name': 'x'})
    assert resp.status_code == 404, resp.text
    _unchanged(conn, volume['id'])


@pytest.mark.parametrize('status', ['error', 'extending', 'uploading',
                                    'reserved'])
def test_a_volume_that_is_not_available(aio, wait, status):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    volume = helpers.create_volume(http, wait_for=wait)
    db_volumes.conditional_update(helpers.admin_context(), volume['id'],
                                  {'status': status}, ['available'])
    resp = _action(http, volume['id'], {'image_name': 'x'})
    assert resp.status_code == 400, resp.text
    assert ('volume %s is %s; expected available' % (volume['id'], status)
            ) in resp.json()['badRequest']['message']
    _unchanged(conn, volume['id'], status)
    # Nothing is left for a restart to take up.
    db_volumes.conditional_update(helpers.admin_context(), volume['id'],
                                  {'status': 'available'}, [status])


@pytest.mark.parametrize('metadata,status,code,message', [
    ({'k' * 256: 'v'}, 400, 'tether.image.refused',
     'Custom property should not be greater than 255 characters. (400)'),
    ({'os_glance_note': 'v', 'status': 'killed', 'note': 'x' * 300},
     None, None, None),
], ids=['key-too-long', 'filtered'])
def test_image_metadata_the_image_api_refuses(aio, wait, metadata, status,
                                              code, message):
    """The volume's image metadata has what Glance refuses as a property
    (as an older release, or Cinder's os-set_image_metadata, may have
    stored it). Its namespaces and attributes are never sent; a key longer
    than Glance takes is refused with Glance's message, the volume is
    available again and no image is left."""
    conn = aio.sdk()
    volume, source = _volume_from_image(conn, wait)
    helpers.set_image_metadata(volume.id, metadata)
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    resp = _action(http, volume.id, {'image_name': 'refused',
                                     'disk_format': 'qcow2'})
    if status is None:
        assert resp.status_code == 202, resp.text
        image_id = resp.json()['os-volume_upload_image']['image_id']
        _wait_image(conn, image_id, wait)
        raw = _raw_image(conn, image_id)
        assert raw['note'] == 'x' * 300
        assert 'os_glance_note' not in raw
        helpers.wait_until_status(http, volume.id, 'available', wait)
        return
    assert resp.status_code == status, resp.text
    (fault,) = resp.json().values()
    assert fault['error_code'] == code
    assert fault['message'] == ('The image API refused the request: %s'
                                % message)
    _unchanged(conn, volume.id, images=[source.id])


# Failed on the volume host ---------------------------------------------------

@pytest.mark.parametrize('protected', [False, True],
                         ids=['unprotected', 'protected'])
def test_a_failure_on_the_host_deletes_the_image(aio, wait, protected):
    """The volume's file is gone from its share: qemu-img fails, the
    image (still queued; unprotected first if it is protected) is deleted
    and the volume is available again."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    volume = helpers.create_volume(http, wait_for=wait)
    path = aio.volume_path(volume['id'])
    os.rename(path, path + '.away')
    try:
        resp = _action(http, volume['id'], {'image_name': 'lost',
                                            'protected': protected})
        assert resp.status_code == 202, resp.text
        image_id = resp.json()['os-volume_upload_image']['image_id']
        helpers.wait_until_status(http, volume['id'], 'available', wait)
        wait(lambda: image_id not in _images(conn), what='image deleted')
    finally:
        os.rename(path + '.away', path)
    _unchanged(conn, volume['id'])
    assert conversion_dir_is_empty(aio)


# Races and restarts ----------------------------------------------------------

def test_upload_racing_extend(aio, wait):
    """Both claim the available volume: one wins, the other is refused
    and changes nothing (no image, no reservation)."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    for _ in range(3):
        volume = helpers.create_volume(http, wait_for=wait)
        vid = volume['id']
        upload_resp, extend_resp = helpers.race([
            lambda: _action(http, vid, {'image_name': 'race',
                                        'disk_format': 'qcow2'}),
            lambda: http.post('/volumes/%s/action' % vid,
                              json={'os-extend': {'new_size': 2}})])
        codes = sorted([upload_resp.status_code, extend_resp.status_code])
        assert codes == [202, 400], (upload_resp.text, extend_resp.text)
        loser = upload_resp if upload_resp.status_code == 400 \
            else extend_resp
        assert 'expected available' in loser.text
        helpers.wait_until_status(http, vid, 'available', wait)
        images = _images(conn)
        if upload_resp.status_code == 202:
            image_id = upload_resp.json()['os-volume_upload_image'][
                'image_id']
            assert list(images) == [image_id]
            _wait_image(conn, image_id, wait)
            assert helpers.db_volume(vid).size == 1
            conn.image.delete_image(image_id)
        else:
            assert images == {}
            assert helpers.db_volume(vid).size == 2
    assert helpers.usage(conn.test_project)['gigabytes'][1] == 0


def test_an_upload_left_by_a_restart_is_given_up(aio, wait):
    """tether-volume stops after the API claimed the volume and created
    the image: when it starts, the queued image is deleted and the volume
    is available again; the message that waited finds nothing to do."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    volume = helpers.create_volume(http, wait_for=wait)
    answers = []

    def upload_while_stopped():
        resp = _action(http, volume['id'], {'image_name': 'interrupted'})
        assert resp.status_code == 202, resp.text
        answers.append(resp.json()['os-volume_upload_image'])
        assert helpers.db_volume(volume['id']).status == 'uploading'
        assert conn.image.get_image(answers[0]['image_id']).status == \
            'queued'

    aio.restart_volume_service(upload_while_stopped)
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    wait(lambda: _images(conn) == {}, what='the queued image deleted')
    _unchanged(conn, volume['id'])


def test_an_upload_that_finished_before_a_restart_keeps_its_image(aio, wait):
    """The image is active, the volume still uploading (it stopped before
    the last step): the image stays, the volume is available again."""
    conn = aio.sdk()
    volume, _source = _volume_from_image(conn, wait)
    image = upload(conn, disk_bytes(b'already uploaded'))

    def stopped_after_the_upload():
        ctx = helpers.admin_context()
        db_volumes.conditional_update(
            ctx, volume.id, {'status': 'uploading',
                             'previous_status': 'available'}, ['available'])
        db_volumes.admin_metadata_set(
            ctx, volume.id, {image_upload.image_state.UPLOAD_IMAGE_ID:
                             image.id})

    aio.restart_volume_service(stopped_after_the_upload)
    wait_status(conn, volume, 'available', wait)
    assert conn.image.get_image(image.id).status == 'active'
    assert image_upload.image_state.UPLOAD_IMAGE_ID not in \
        helpers.db_volume(volume.id).admin_metadata


def test_a_stale_upload_is_given_up(aio, wait):
    """The API stopped between its claim and its cast: no message will
    come. The manager's re-drive of stale operations gives the upload up
    (the queued image deleted, the volume available), and leaves alone an
    upload it works on."""
    conn = aio.sdk()
    volume, source = _volume_from_image(conn, wait)
    queued = conn.image.create_image(name='never-filled', disk_format='raw',
                                     container_format='bare')
    ctx = helpers.admin_context()
    db_volumes.admin_metadata_set(
        ctx, volume.id, {image_upload.image_state.UPLOAD_IMAGE_ID:
                         queued.id})
    db_volumes.conditional_update(
        ctx, volume.id, {'status': 'uploading',
                         'previous_status': 'available',
                         'updated_at': _long_ago()}, ['available'])
    manager = aio.impl.volume_service.backends[0].manager
    with manager._exclusive(volume.id):
        manager.redrive_stale_operations(ctx, timeout=100)
        assert helpers.db_volume(volume.id).status == 'uploading'
    manager.redrive_stale_operations(ctx, timeout=100)
    _unchanged(conn, volume.id, images=[source.id])


def _long_ago():
    """Older than the timeout the tests pass (100 s), younger than the
    periodic's own (300 s): only the test's call takes these up."""
    return timeutils.utcnow() - datetime.timedelta(seconds=200)
