"""Volumes made from images: the real Glance of tether-aio, the real
qemu-img, openstacksdk as users call it.

What a refused image leaves is checked each time: no volume where the API
refused, the quota exact, no download left in the conversion directory.
"""

import hashlib
import os
import uuid

from oslo_config import cfg
import pytest

from tests.functional import helpers
from tests.functional.volume import message_helpers as mh
from tests.functional.helpers import GiB
from tests.functional.helpers import MiB
from tests.functional.image_helpers import conversion_dir_is_empty
from tests.functional.image_helpers import qemu_img
from tests.functional.image_helpers import tamper
from tests.functional.image_helpers import unchecked_image
from tests.functional.image_helpers import upload
from tests.functional.image_helpers import volume_content
from tests.functional.image_helpers import wait_status
from tether.db.volume import volume as db_volumes

CONF = cfg.CONF
LATEST = '3.71'


# Made from an image ----------------------------------------------------------

def test_a_volume_made_from_a_raw_image(aio, wait, image_transfer):
    conn = aio.sdk()
    data = helpers.disk_bytes(b'raw image one')
    image = upload(conn, data, os_distro='tether-tiny', min_ram=64)

    volume = conn.block_storage.create_volume(size=1, image_id=image.id,
                                              name='from-image')
    assert volume.status == 'creating'
    volume = wait_status(conn, volume, 'available', wait)

    assert volume.is_bootable is True
    assert image_transfer.read_once(image.id)
    # The API looked the image up; the volume host used what it read.
    assert image_transfer.looked_up == [image.id]
    content = volume_content(aio, volume.id)
    assert len(content) == GiB
    assert content[:len(data)] == data
    assert content[len(data):] == bytes(GiB - len(data))
    meta = dict(volume.volume_image_metadata)
    # openstacksdk's own properties of the image come along, as any other.
    assert meta.pop('owner_specified.openstack.object') == \
        'images/%s' % image.name
    meta = {k: v for k, v in meta.items()
            if not k.startswith('owner_specified.')}
    assert meta == {
        'image_id': image.id, 'image_name': image.name,
        'checksum': image.checksum, 'size': str(len(data)),
        'virtual_size': str(len(data)), 'disk_format': 'raw',
        'container_format': 'bare', 'min_disk': '0', 'min_ram': '64',
        'os_distro': 'tether-tiny', 'signature_verified': 'False'}
    assert helpers.usage(conn.test_project) == {'volumes': (1, 0),
                                                'gigabytes': (1, 0)}
    assert conversion_dir_is_empty(aio)
    # Written as it came, the image's zeros skipped: of the 4 MiB, the
    # MiB of the partition table and the MiB of the marker take room.
    assert os.stat(aio.volume_path(volume.id)).st_blocks * 512 <= 2 * MiB


def test_a_volume_made_from_a_qcow2_image_by_name(aio, wait,
                                                  image_transfer, tmp_path):
    conn = aio.sdk()
    raw = tmp_path / 'disk.raw'
    raw.write_bytes(helpers.disk_bytes(b'qcow2 image'))
    qemu_img('convert', '-f', 'raw', '-O', 'qcow2', str(raw),
             str(tmp_path / 'disk.qcow2'))
    image = upload(conn, (tmp_path / 'disk.qcow2').read_bytes(), 'qcow2',
                   name='qcow2-' + uuid.uuid4().hex[:8])

    # imageRef may name the image (Cinder looks a name up).
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    resp = http.post('/volumes', json={'volume': {'size': 1,
                                                  'imageRef': image.name}})
    assert resp.status_code == 202, resp.text
    volume = wait_status(conn, conn.block_storage.get_volume(
        resp.json()['volume']['id']), 'available', wait)
    assert volume.volume_image_metadata['image_id'] == image.id
    assert volume.volume_image_metadata['disk_format'] == 'qcow2'
    assert volume_content(aio, volume.id)[:4 * MiB] == raw.read_bytes()


def test_image_metadata_follows_the_policy(aio, wait):
    conn = aio.sdk()
    image = upload(conn, helpers.disk_bytes())
    volume = wait_status(conn, conn.block_storage.create_volume(
        size=1, image_id=image.id), 'available', wait)
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    body = http.get('/volumes/%s' % volume.id).json()['volume']
    assert body['volume_image_metadata']['image_id'] == image.id
    assert body['consumes_quota'] is True
    listed = http.get('/volumes/detail').json()['volumes']
    assert listed[0]['volume_image_metadata']['image_id'] == image.id
    # A volume made empty has none.
    empty = helpers.create_volume(http, size=1)
    assert 'volume_image_metadata' not in empty


# Refused before anything is made ---------------------------------------------

def _refused(aio, conn, body, status=400):
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    before = helpers.usage(conn.test_project)
    resp = http.post('/volumes', json={'volume': dict({'size': 1}, **body)})
    assert resp.status_code == status, resp.text
    assert helpers.project_volumes(conn.test_project) == []
    assert helpers.usage(conn.test_project) == before
    return resp.json()


# Fixed ids: pytest-xdist's workers must collect the same tests.
@pytest.mark.parametrize('ref', [
    '7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b01', 'no-such-image',
    'http://glance/v2/images/7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b02'])
def test_an_image_that_does_not_exist(aio, ref):
    conn = aio.sdk()
    body = _refused(aio, conn, {'imageRef': ref})
    assert body['badRequest']['message'] == (
        'Invalid image identifier or unable to access requested image: '
        '%s.' % ref)
    assert body['badRequest']['error_code'] == 'volume.image.invalid_ref'


def test_another_projects_private_image(aio):
    owner = aio.sdk()
    image = upload(owner, helpers.disk_bytes())
    _refused(aio, aio.sdk(), {'imageRef': image.id})


def test_a_name_two_images_have(aio):
    conn = aio.sdk()
    name = 'twice-' + uuid.uuid4().hex[:8]
    upload(conn, helpers.disk_bytes(), name=name)
    upload(conn, helpers.disk_bytes(), name=name)
    body = _refused(aio, conn, {'imageRef': name}, 409)
    assert 'Multiple images are named %s' % name in \
        body['conflictingRequest']['message']


@pytest.mark.parametrize('attrs,reason', [
    ({'min_disk': 2}, 'the volume size, 1GB, is smaller than the image '
                      'minDisk size, 2GB'),
    ({'container_format': 'ovf'}, 'its container format is ovf'),
])
def test_an_image_the_volume_cannot_hold(aio, attrs, reason):
    conn = aio.sdk()
    image = upload(conn, helpers.disk_bytes(), **attrs)
    body = _refused(aio, conn, {'imageRef': image.id})
    assert reason in body['badRequest']['message']
    assert body['badRequest']['error_code'] == 'volume.image.unacceptable'


def test_an_image_whose_virtual_size_is_larger(aio, tmp_path):
    conn = aio.sdk()
    qemu_img('create', '-f', 'qcow2', str(tmp_path / 'big.qcow2'), '3G')
    image = upload(conn, (tmp_path / 'big.qcow2').read_bytes(), 'qcow2')
    assert image.virtual_size == 3 * GiB
    body = _refused(aio, conn, {'imageRef': image.id, 'size': 2})
    assert 'its virtual size, 3GB, does not fit in a volume of 2GB' in \
        body['badRequest']['message']


def test_an_image_without_data(aio):
    conn = aio.sdk()
    image = conn.image.create_image(name='queued', disk_format='raw',
                                    container_format='bare')
    body = _refused(aio, conn, {'imageRef': image.id})
    assert 'it is queued, not active' in body['badRequest']['message']


# Refused on the volume host: error, and the quota given back -----------------

def _fails_on_the_host(aio, conn, image, wait, before_delete=None):
    volume = conn.block_storage.create_volume(size=1, image_id=image.id)
    volume = wait_status(conn, volume, 'error', wait)
    if before_delete is not None:
        before_delete(aio, volume)
    assert helpers.usage(conn.test_project) == {'volumes': (0, 0),
                                                'gigabytes': (0, 0)}
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    assert http.get('/volumes/%s' % volume.id).json()['volume'][
        'consumes_quota'] is False
    assert conversion_dir_is_empty(aio)
    # Its project reads why (Cinder's "copy image to volume" message).
    assert [event for event, _text in mh.of(http, volume.id)] == [
        'VOLUME_VOLUME_005_001']
    # Deleting it gives nothing back a second time.
    conn.block_storage.delete_volume(volume)
    wait(lambda: helpers.db_volume(volume.id) is None, what='delete')
    assert helpers.usage(conn.test_project) == {'volumes': (0, 0),
                                                'gigabytes': (0, 0)}
    assert not os.path.exists(aio.volume_path(volume.id))
    return volume


def test_a_qcow2_that_claims_to_be_raw(aio, wait, image_transfer, tmp_path):
    """Glance 33 takes it (it logs the mismatch); tether refuses to use
    data that is not what its image says."""
    qemu_img('create', '-f', 'qcow2', str(tmp_path / 'disk'), '1M')
    conn = aio.sdk()
    image = upload(conn, (tmp_path / 'disk').read_bytes(), 'raw')
    assert image.status == 'active'
    _fails_on_the_host(aio, conn, image, wait)


def test_a_qcow2_with_a_backing_file_on_the_host(aio, wait, image_transfer,
                                                 tmp_path):
    """CVE-2024-32498's kind: converted, it would copy a file of the
    volume host into the volume."""
    secret = tmp_path / 'host-secret'
    secret.write_bytes(b'host secret ' * 1000)
    hostile = tmp_path / 'hostile'
    qemu_img('create', '-f', 'qcow2', '-b', str(secret), '-F', 'raw',
             str(hostile), '1M')
    conn = aio.sdk()
    image = unchecked_image(aio, conn, hostile.read_bytes(), 'qcow2')
    volume = _fails_on_the_host(aio, conn, image, wait,
                                before_delete=_has_no_secret)
    assert volume.status == 'error'


def _has_no_secret(aio, volume):
    with open(aio.volume_path(volume.id), 'rb') as f:
        assert b'host secret' not in f.read()


def test_a_raw_disk_that_claims_to_be_qcow2(aio, wait, image_transfer):
    conn = aio.sdk()
    image = unchecked_image(aio, conn, helpers.disk_bytes(), 'qcow2')
    _fails_on_the_host(aio, conn, image, wait)


def test_an_image_that_lies_about_its_virtual_size(aio, wait, image_transfer,
                                                   tmp_path):
    """Glance recorded 1 MiB; the qcow2 says 3 GiB: it does not fit the
    1 GiB volume the API let through."""
    qemu_img('create', '-f', 'qcow2', str(tmp_path / 'big'), '3G')
    conn = aio.sdk()
    image = unchecked_image(aio, conn, (tmp_path / 'big').read_bytes(),
                            'qcow2', virtual_size=MiB)
    _fails_on_the_host(aio, conn, image, wait)


def test_image_data_that_is_not_what_glance_recorded(aio, wait,
                                                     image_transfer):
    """The file in Glance's store changed after the upload: its hash no
    longer matches, and the volume is in error."""
    conn = aio.sdk()
    image = upload(conn, helpers.disk_bytes(b'original'))
    stored = os.path.join(aio.impl.glance.state_dir, 'images', image.id)
    with open(stored, 'r+b') as f:
        f.seek(3 * MiB)
        f.write(b'tampered')
    _fails_on_the_host(aio, conn, image, wait)


@pytest.mark.parametrize('image_transfer', ['download'], indirect=True)
def test_a_download_that_stalls(aio, wait, image_transfer):
    """The file in Glance's store is shorter than Glance says: Glance
    sends what it has and waits; tether gives up after [image]
    read_timeout."""
    conn = aio.sdk()
    image = upload(conn, helpers.disk_bytes())
    os.truncate(os.path.join(aio.impl.glance.state_dir, 'images', image.id),
                MiB)
    CONF.set_override('read_timeout', 2, group='image')
    try:
        _fails_on_the_host(aio, conn, image, wait)
    finally:
        CONF.clear_override('read_timeout', group='image')


@pytest.mark.parametrize('image_transfer', ['store-file'], indirect=True)
def test_a_store_file_shorter_than_the_image_api_recorded(aio, wait,
                                                          image_transfer):
    conn = aio.sdk()
    image = upload(conn, helpers.disk_bytes())
    os.truncate(os.path.join(aio.impl.glance.state_dir, 'images', image.id),
                MiB)
    _fails_on_the_host(aio, conn, image, wait)
    assert image_transfer.read_once(image.id)


@pytest.mark.parametrize('image_transfer', ['store-file'], indirect=True)
def test_a_store_file_that_changed_after_it_was_found_good(aio, wait,
                                                           image_transfer):
    """Its hash is checked once while it stays the same file: written to,
    it is checked again, and refused."""
    conn = aio.sdk()
    image = upload(conn, helpers.disk_bytes(b'checked once'))
    good = wait_status(conn, conn.block_storage.create_volume(
        size=1, image_id=image.id), 'available', wait)
    conn.block_storage.delete_volume(good)
    wait(lambda: helpers.db_volume(good.id) is None, what='delete')
    tamper(aio, image.id)
    _fails_on_the_host(aio, conn, image, wait)
    assert image_transfer.store_files == [image.id, image.id]


# Races and restarts ----------------------------------------------------------

def test_a_volume_left_downloading_is_made_again_after_a_restart(aio, wait):
    conn = aio.sdk()
    data = helpers.disk_bytes(b'after restart')
    image = upload(conn, data)
    volume = wait_status(conn, conn.block_storage.create_volume(
        size=1, image_id=image.id), 'available', wait)

    def crashed_mid_download():
        # As if tether-volume died while it wrote the image: the volume
        # downloading, its file with a part of the image.
        ctx = helpers.admin_context()
        db_volumes.conditional_update(ctx, volume.id,
                                      {'status': 'downloading'},
                                      ['available'])
        with open(aio.volume_path(volume.id), 'r+b') as f:
            f.seek(3 * MiB)
            f.write(b'half')

    aio.restart_volume_service(crashed_mid_download)
    volume = wait_status(conn, volume, 'available', wait)
    assert volume_content(aio, volume.id)[:len(data)] == data
    assert helpers.usage(conn.test_project) == {'volumes': (1, 0),
                                                'gigabytes': (1, 0)}


def test_a_downloading_volume_cannot_be_deleted(aio, wait):
    conn = aio.sdk()
    image = upload(conn, helpers.disk_bytes())
    volume = wait_status(conn, conn.block_storage.create_volume(
        size=1, image_id=image.id), 'available', wait)
    db_volumes.conditional_update(helpers.admin_context(), volume.id,
                                  {'status': 'downloading'}, ['available'])
    http = aio.http(conn.test_user, conn.test_project, version=LATEST)
    resp = http.delete('/volumes/%s' % volume.id)
    assert resp.status_code == 400, resp.text
    assert 'is downloading' in resp.json()['badRequest']['message']
    db_volumes.conditional_update(helpers.admin_context(), volume.id,
                                  {'status': 'available'}, ['downloading'])


def test_hash_of_the_volume_matches_the_images(aio, wait, image_transfer):
    """A 20 MB image, byte for byte (the chunks of the download)."""
    conn = aio.sdk()
    data = os.urandom(20 * MiB)
    image = upload(conn, data)
    volume = wait_status(conn, conn.block_storage.create_volume(
        size=1, image_id=image.id), 'available', wait)
    content = volume_content(aio, volume.id)
    assert hashlib.new(image.hash_algo,
                       content[:len(data)]).hexdigest() == image.hash_value
