"""os-reimage (3.68): an image written over a volume, with the aio's real
Glance and the real qemu-img, as the compute service asks for it in the
rebuild of a volume-backed server (a ``reserved`` volume) and as users
may for an available one.

The ``volume-reimaged`` event the volume service sends is seen through a
spy on its compute client that records each call and makes it: the
compute API of this tree does not take the event yet (2.93 is being
built), and whatever it answers, the re-image stands.
"""

import datetime
import os
import uuid

from oslo_utils import timeutils
import pytest

from tests.functional import helpers
from tests.functional.volume import message_helpers as mh
from tests.functional.helpers import disk_bytes
from tests.functional.helpers import MiB
from tests.functional.image_helpers import conversion_dir_is_empty
from tests.functional.image_helpers import qemu_img
from tests.functional.image_helpers import tamper
from tests.functional.image_helpers import upload
from tests.functional.image_helpers import volume_content
from tether.db.volume import volume as db_volumes
from tether.volume import compute_client
from tether.volume import image_state

REIMAGE = '3.68'
GiB = helpers.GiB


@pytest.fixture
def events(monkeypatch):
    """The calls the volume service makes to the compute API, recorded
    (method, path, microversion, body, the status it answered) and made."""
    calls = []
    request = compute_client.ComputeClient._request

    def spy(self, method, url, version, body=None, **kwargs):
        resp = request(self, method, url, version, body=body, **kwargs)
        calls.append((method, url, version, body, resp.status_code))
        return resp

    monkeypatch.setattr(compute_client.ComputeClient, '_request', spy)
    return calls


def _reimage(http, volume_id, image_id, **extra):
    return http.post('/volumes/%s/action' % volume_id, json={
        'os-reimage': dict({'image_id': image_id}, **extra)})


def _volume(http, wait, image=None):
    attrs = {'imageRef': image.id} if image is not None else {}
    return helpers.create_volume(http, wait_for=wait, **attrs)


def _state(volume_id):
    volume = helpers.db_volume(volume_id)
    return (volume.status, volume.bootable, dict(volume.image_metadata),
            image_state.REIMAGE_IMAGE_ID in volume.admin_metadata)


def _reserve(http, volume_id, instance_uuid=None):
    """An attachment without a connector, as a rebuild makes it: the
    volume is reserved."""
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume_id,
        'instance_uuid': instance_uuid or str(uuid.uuid4())}})
    assert resp.status_code == 200, resp.text
    return resp.json()['attachment']


def _reimaged_events(events):
    return [(version, body['events'])
            for method, url, version, body, _status in events
            if url == '/os-server-external-events']


# Re-imaged -------------------------------------------------------------------

def test_an_available_volume_reimaged(aio, wait, tmp_path, events,
                                      image_transfer):
    """Nothing of the old volume survives: not where the new image has a
    hole, not past its end. The image metadata is all the new image's."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    old = upload(conn, disk_bytes(b'old image', size=8 * MiB),
                 os_distro='old-os', hw_disk_bus='scsi')
    volume = _volume(http, wait, old)
    path = aio.volume_path(volume['id'])
    with open(path, 'r+b') as f:
        # Where the new image has a hole (zeros), past its end, and at
        # the end of the volume.
        for offset in (2 * MiB, 6 * MiB, GiB - MiB):
            f.seek(offset)
            f.write(b'old secret')
    raw = tmp_path / 'new.raw'
    raw.write_bytes(disk_bytes(b'new image'))
    qemu_img('convert', '-f', 'raw', '-O', 'qcow2', str(raw),
             str(tmp_path / 'new.qcow2'))
    new = upload(conn, (tmp_path / 'new.qcow2').read_bytes(), 'qcow2',
                 os_distro='new-os')

    resp = _reimage(http, volume['id'], new.id)

    assert resp.status_code == 202, resp.text
    assert resp.content == b''
    shown = helpers.wait_until_status(http, volume['id'], 'available', wait)
    content = volume_content(aio, volume['id'])
    assert len(content) == GiB
    assert content[:4 * MiB] == raw.read_bytes()
    assert content.count(b'old secret') == 0
    assert b'old image' not in content
    assert content[4 * MiB:] == bytes(GiB - 4 * MiB)
    meta = {k: v for k, v in shown['volume_image_metadata'].items()
            if not k.startswith('owner_specified.')}
    assert meta == {
        'image_id': new.id, 'image_name': new.name,
        'checksum': new.checksum, 'size': str(new.size),
        'virtual_size': str(4 * MiB), 'disk_format': 'qcow2',
        'container_format': 'bare', 'min_disk': '0', 'min_ram': '0',
        'os_distro': 'new-os', 'signature_verified': 'False'}
    assert shown['bootable'] == 'true'
    assert _state(volume['id'])[3] is False
    assert helpers.db_volume(volume['id']).previous_status == 'downloading'
    assert conversion_dir_is_empty(aio)
    # The API looked the new image up; the volume host used what it read.
    assert image_transfer.looked_up.count(new.id) == 1
    # An available volume has no server to tell.
    assert _reimaged_events(events) == []


def test_an_empty_volume_becomes_bootable(aio, wait):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait)
    assert volume['bootable'] == 'false'
    image = upload(conn, disk_bytes(b'first image'))
    resp = _reimage(http, volume['id'], image.id, reimage_reserved=False)
    assert resp.status_code == 202, resp.text
    shown = helpers.wait_until_status(http, volume['id'], 'available', wait)
    assert shown['bootable'] == 'true'
    assert shown['volume_image_metadata']['image_id'] == image.id
    assert volume_content(aio, volume['id'])[:4 * MiB] == \
        disk_bytes(b'first image')
    assert helpers.usage(conn.test_project) == {'volumes': (1, 0),
                                                'gigabytes': (1, 0)}


def test_a_volume_in_error_is_reimaged_and_stays_in_error(aio, wait):
    """As Cinder: the re-image returns the volume to the status it came
    from; an administrator resets it."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait)
    db_volumes.conditional_update(helpers.admin_context(), volume['id'],
                                  {'status': 'error'}, ['available'])
    image = upload(conn, disk_bytes(b'repaired'))
    assert _reimage(http, volume['id'], image.id).status_code == 202
    wait(lambda: helpers.db_volume(volume['id']).bootable, what='bootable')
    assert _state(volume['id'])[:2] == ('error', True)
    assert volume_content(aio, volume['id'])[:4 * MiB] == \
        disk_bytes(b'repaired')


def test_a_reserved_volume_of_a_rebuild(aio, wait, events):
    """The compute service's call: reserved, reimage_reserved true. The
    volume is reserved again after, and the server's compute host is told
    (volume-reimaged, completed, at 2.93)."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait, upload(conn, disk_bytes(b'before')))
    server = str(uuid.uuid4())
    attachment = _reserve(http, volume['id'], server)
    assert helpers.db_volume(volume['id']).status == 'reserved'
    image = upload(conn, disk_bytes(b'rebuilt'))

    # Without reimage_reserved, a reserved volume is refused.
    resp = _reimage(http, volume['id'], image.id)
    assert resp.status_code == 400, resp.text
    assert ('volume %s is reserved; expected available or error'
            % volume['id']) in resp.json()['badRequest']['message']

    resp = _reimage(http, volume['id'], image.id, reimage_reserved=True)
    assert resp.status_code == 202, resp.text
    wait(lambda: _reimaged_events(events), what='volume-reimaged')
    assert _reimaged_events(events) == [('2.93', [{
        'name': 'volume-reimaged', 'server_uuid': server,
        'tag': volume['id'], 'status': 'completed'}])]
    assert _state(volume['id'])[:2] == ('reserved', True)
    assert helpers.db_volume(volume['id']).image_metadata['image_id'] == \
        image.id
    assert volume_content(aio, volume['id'])[:4 * MiB] == \
        disk_bytes(b'rebuilt')
    # The attachment is as it was: the compute host connects it next.
    shown = http.get('/attachments/%s' % attachment['id']).json()
    assert shown['attachment']['status'] == 'reserved'


def test_a_failed_reimage_of_a_reserved_volume_tells_the_server(aio, wait,
                                                                events):
    """Beyond Cinder: the volume is in error and the compute host hears
    volume-reimaged, failed, at once (Cinder leaves it to time out)."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait)
    server = str(uuid.uuid4())
    _reserve(http, volume['id'], server)
    image = upload(conn, disk_bytes(b'will be tampered'))
    tamper(aio, image.id)

    resp = _reimage(http, volume['id'], image.id, reimage_reserved=True)

    assert resp.status_code == 202, resp.text
    wait(lambda: _reimaged_events(events), what='volume-reimaged')
    assert _reimaged_events(events) == [('2.93', [{
        'name': 'volume-reimaged', 'server_uuid': server,
        'tag': volume['id'], 'status': 'failed'}])]
    assert _state(volume['id']) == ('error', False, {}, False)
    assert helpers.db_volume(volume['id']).previous_status == 'downloading'
    assert conversion_dir_is_empty(aio)
    assert b'will be tampered' not in volume_content(aio, volume['id'])
    assert [event for event, _text in mh.of(http, volume['id'])] == [
        'VOLUME_VOLUME_016_001']


def test_an_event_the_compute_api_refuses_does_not_fail_the_reimage(
        aio, wait, events):
    """Whatever the compute API answers (today: it does not serve 2.93;
    once it does, the unknown server is a 404 of the event), the volume
    is re-imaged and reserved again."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait)
    _reserve(http, volume['id'])
    image = upload(conn, disk_bytes())
    assert _reimage(http, volume['id'], image.id,
                    reimage_reserved=True).status_code == 202
    wait(lambda: _reimaged_events(events), what='volume-reimaged')
    (_method, _url, _version, _body, status) = events[-1]
    assert status != 200
    assert _state(volume['id'])[:2] == ('reserved', True)


# Refused ---------------------------------------------------------------------

def _refused(http, volume_id, image_id, status, code, **extra):
    before = _state(volume_id)
    resp = _reimage(http, volume_id, image_id, **extra)
    assert resp.status_code == status, resp.text
    (fault,) = resp.json().values()
    assert fault['error_code'] == code, fault
    assert _state(volume_id) == before
    return fault['message']


def test_below_3_68_there_is_no_os_reimage(aio, wait):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version='3.67')
    volume = _volume(http, wait)
    message = _refused(http, volume['id'], upload(conn, disk_bytes()).id,
                       404, 'api.action.not_served')
    assert message == ('The action os-reimage is not served at microversion '
                       '3.67 (it is served from 3.68).')


@pytest.mark.parametrize('body,field', [
    ({}, "'image_id' is a required property"),
    ({'image_id': 'not-a-uuid'}, 'os-reimage/image_id'),
    ({'image_id': '7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b01',
      'reimage_reserved': 'true'}, 'os-reimage/reimage_reserved'),
    ({'image_id': '7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b01',
      'reimage_reserved': None}, 'os-reimage/reimage_reserved'),
    ({'image_id': '7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b01', 'force': True},
     "'force' was unexpected"),
], ids=['no-image', 'not-uuid', 'string-bool', 'null-bool', 'unknown'])
def test_bodies_the_schema_refuses(aio, wait, body, field):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait)
    before = _state(volume['id'])
    resp = http.post('/volumes/%s/action' % volume['id'],
                     json={'os-reimage': body})
    assert resp.status_code == 400, resp.text
    fault = resp.json()['badRequest']
    assert fault['error_code'] == 'api.validation.failed'
    assert field in fault['message']
    assert _state(volume['id']) == before


def test_policies(aio, wait):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    reader = aio.http(conn.test_user, conn.test_project, roles=['reader'],
                      version=REIMAGE)
    image = upload(conn, disk_bytes())
    volume = _volume(http, wait)
    message = _refused(reader, volume['id'], image.id, 403,
                       'tether.policy.not_authorized')
    assert 'volume:reimage to be performed' in message
    # A reserved volume is the other rule's.
    _reserve(http, volume['id'])
    message = _refused(reader, volume['id'], image.id, 403,
                       'tether.policy.not_authorized', reimage_reserved=True)
    assert 'volume:reimage_reserved' in message
    # Another project's volume, and no volume at all.
    other = aio.http(version=REIMAGE)
    _refused(other, volume['id'], image.id, 404, 'volume.volume.not_found')
    resp = _reimage(http, str(uuid.uuid4()), image.id)
    assert resp.status_code == 404, resp.text


def test_images_that_cannot_be_used(aio, wait, tmp_path, image_transfer):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait, upload(conn, disk_bytes(b'kept')))
    vid = volume['id']
    # No such image, and another project's private one: not found.
    message = _refused(http, vid, '7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b09',
                       404, 'tether.image.not_found')
    assert '7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b09' in message
    private = upload(aio.sdk(), disk_bytes())
    _refused(http, vid, private.id, 404, 'tether.image.not_found')
    # Not active (no data yet), too large, a larger min_disk.
    queued = conn.image.create_image(name='queued', disk_format='raw',
                                     container_format='bare')
    message = _refused(http, vid, queued.id, 400,
                       'volume.image.unacceptable')
    assert 'it is queued, not active' in message
    qemu_img('create', '-f', 'qcow2', str(tmp_path / 'big.qcow2'), '3G')
    big = upload(conn, (tmp_path / 'big.qcow2').read_bytes(), 'qcow2')
    message = _refused(http, vid, big.id, 400, 'volume.image.unacceptable')
    assert 'its virtual size, 3GB, does not fit in a volume of 1GB' in \
        message
    needy = upload(conn, disk_bytes(), min_disk=2)
    message = _refused(http, vid, needy.id, 400,
                       'volume.image.unacceptable')
    assert 'smaller than the image minDisk size, 2GB' in message
    assert volume_content(aio, vid)[:4 * MiB] == disk_bytes(b'kept')


@pytest.mark.parametrize('status', ['in-use', 'extending', 'uploading',
                                    'downloading', 'error_extending'])
def test_a_volume_in_a_status_that_cannot_be_reimaged(aio, wait, status):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait)
    db_volumes.conditional_update(helpers.admin_context(), volume['id'],
                                  {'status': status}, ['available'])
    message = _refused(http, volume['id'], upload(conn, disk_bytes()).id,
                       400, 'volume.volume.invalid_status',
                       reimage_reserved=True)
    assert ('volume %s is %s; expected available or error or reserved'
            % (volume['id'], status)) in message
    # Nothing is left for a restart to take up.
    db_volumes.conditional_update(helpers.admin_context(), volume['id'],
                                  {'status': 'available'}, [status])


def test_a_volume_no_backend_took(aio, wait):
    """In error without a host (no backend had room for it): there is no
    storage to write on."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait)
    db_volumes.conditional_update(helpers.admin_context(), volume['id'],
                                  {'status': 'error', 'host': None},
                                  ['available'])
    message = _refused(http, volume['id'], upload(conn, disk_bytes()).id,
                       400, 'volume.volume.invalid')
    assert message == ('Invalid volume: volume %s was never made on a '
                       'backend; it cannot be re-imaged' % volume['id'])


def test_a_volume_with_two_attachments(aio, wait):
    """A multiattach volume reserved by two servers: 409, as Cinder."""
    admin = aio.http('admin', 'admin', version=REIMAGE)
    name = 'multi-' + uuid.uuid4().hex[:6]
    resp = admin.post('/types', json={'volume_type': {
        'name': name, 'extra_specs': {'multiattach': '<is> True'}}})
    assert resp.status_code == 200, resp.text
    volume = helpers.create_volume(admin, wait_for=wait, volume_type=name)
    _reserve(admin, volume['id'])
    _reserve(admin, volume['id'])
    image = upload(aio.admin(), disk_bytes())
    message = _refused(admin, volume['id'], image.id, 409,
                       'volume.volume.attached_to_many',
                       reimage_reserved=True)
    assert message == ('Volume %s has 2 attachments: a volume attached to '
                       'more than one server cannot be re-imaged.'
                       % volume['id'])


# Races and restarts ----------------------------------------------------------

def test_two_reimages_at_once(aio, wait):
    """One claims the volume; the other is refused, naming the status
    the winner left. On a loaded machine one re-image may be over before
    the other arrives: then both are taken, one after the other, and the
    volume holds the image its metadata names."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    # A session of its own for each racer: requests' sessions are not
    # made for two threads at once.
    other = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    first = upload(conn, disk_bytes(b'first'))
    second = upload(conn, disk_bytes(b'second'))
    for _ in range(3):
        volume = _volume(http, wait)
        results = helpers.race([
            lambda: _reimage(http, volume['id'], first.id),
            lambda: _reimage(other, volume['id'], second.id)])
        codes = sorted(r.status_code for r in results)
        if codes == [202, 202]:
            # One after the other: the last one's image is the volume's.
            helpers.wait_until_status(http, volume['id'], 'available', wait)
            volume = helpers.db_volume(volume['id'])
            winner = first if volume.image_metadata['image_id'] == \
                first.id else second
        else:
            assert codes == [202, 400], [r.text for r in results]
            winner = first if results[0].status_code == 202 else second
            loser = results[1] if results[0].status_code == 202 \
                else results[0]
            assert 'is downloading; expected available' in loser.text
            helpers.wait_until_status(http, volume['id'], 'available', wait)
            volume = helpers.db_volume(volume['id'])
            assert volume.image_metadata['image_id'] == winner.id
        assert volume_content(aio, volume.id)[:4 * MiB] == disk_bytes(
            b'first' if winner is first else b'second')


def test_reimage_racing_delete(aio, wait):
    """Either the delete wins (the volume goes; the re-image finds it
    deleting or gone) or the re-image does (the delete finds it
    downloading, and the volume is re-imaged)."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    image = upload(conn, disk_bytes(b'raced'))
    outcomes = set()
    for _ in range(4):
        volume = _volume(http, wait)
        vid = volume['id']
        reimaged, deleted = helpers.race([
            lambda: _reimage(http, vid, image.id),
            lambda: http.delete('/volumes/%s' % vid)])
        assert sorted([reimaged.status_code, deleted.status_code]) in (
            [202, 400], [202, 404]), (reimaged.text, deleted.text)
        if deleted.status_code == 202:
            outcomes.add('deleted')
            wait(lambda: helpers.db_volume(vid) is None, what='deleted')
            assert not os.path.exists(aio.volume_path(vid))
        else:
            outcomes.add('reimaged')
            assert 'is downloading' in deleted.text
            helpers.wait_until_status(http, vid, 'available', wait)
            assert helpers.db_volume(vid).image_metadata['image_id'] == \
                image.id
            http.delete('/volumes/%s' % vid)
    wait(lambda: helpers.usage(conn.test_project) == {
        'volumes': (0, 0), 'gigabytes': (0, 0)}, what='quota back')


def test_a_reimage_left_by_a_restart_is_written_again(aio, wait, events):
    """tether-volume stops after the API claimed the volume: when it
    starts, it writes the image again (as the service) and the server
    is told; the message that waited finds nothing to do."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait, upload(conn, disk_bytes(b'before')))
    server = str(uuid.uuid4())
    _reserve(http, volume['id'], server)
    image = upload(conn, disk_bytes(b'after the restart'))

    def reimage_while_stopped():
        resp = _reimage(http, volume['id'], image.id, reimage_reserved=True)
        assert resp.status_code == 202, resp.text
        assert _state(volume['id'])[0] == 'downloading'
        # As if the write had begun.
        with open(aio.volume_path(volume['id']), 'r+b') as f:
            f.seek(3 * MiB)
            f.write(b'half')

    aio.restart_volume_service(reimage_while_stopped)
    wait(lambda: _state(volume['id'])[0] == 'reserved', what='reserved')
    assert helpers.db_volume(volume['id']).image_metadata['image_id'] == \
        image.id
    assert volume_content(aio, volume['id'])[:4 * MiB] == \
        disk_bytes(b'after the restart')
    wait(lambda: _reimaged_events(events), what='volume-reimaged')
    assert [e[0]['status'] for _v, e in _reimaged_events(events)] == \
        ['completed']


def test_a_reimage_left_without_its_image_fails_after_a_restart(aio, wait,
                                                                events):
    """A volume left downloading by a re-image (it has a previous status)
    that names no image: it is in error, and the server is told. A volume
    left downloading by a create (no previous status) is made again, as
    before."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    reimaged = _volume(http, wait)
    server = str(uuid.uuid4())
    _reserve(http, reimaged['id'], server)
    created = _volume(http, wait, upload(conn, disk_bytes(b'created')))

    def left_downloading():
        ctx = helpers.admin_context()
        db_volumes.conditional_update(
            ctx, reimaged['id'], {'status': 'downloading',
                                  'previous_status': 'reserved'},
            ['reserved'])
        db_volumes.conditional_update(ctx, created['id'],
                                      {'status': 'downloading'},
                                      ['available'])

    aio.restart_volume_service(left_downloading)
    wait(lambda: _state(reimaged['id'])[0] == 'error', what='error')
    helpers.wait_until_status(http, created['id'], 'available', wait)
    assert volume_content(aio, created['id'])[:4 * MiB] == \
        disk_bytes(b'created')
    wait(lambda: _reimaged_events(events), what='volume-reimaged')
    assert _reimaged_events(events) == [('2.93', [{
        'name': 'volume-reimaged', 'server_uuid': server,
        'tag': reimaged['id'], 'status': 'failed'}])]


def test_a_stale_reimage_is_written_again(aio, wait, events):
    """The API stopped between its claim and its cast: no message will
    come. The manager's re-drive of stale operations writes the image it
    recorded (as the service) and tells the server; it leaves alone a
    re-image it works on."""
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=REIMAGE)
    volume = _volume(http, wait)
    server = str(uuid.uuid4())
    _reserve(http, volume['id'], server)
    image = upload(conn, disk_bytes(b'stale'))
    ctx = helpers.admin_context()
    db_volumes.admin_metadata_set(
        ctx, volume['id'], {image_state.REIMAGE_IMAGE_ID: image.id})
    db_volumes.conditional_update(
        ctx, volume['id'], {'status': 'downloading',
                            'previous_status': 'reserved',
                            'updated_at': timeutils.utcnow() -
                            datetime.timedelta(seconds=200)},
        ['reserved'])
    manager = aio.impl.volume_service.backends[0].manager
    with manager._exclusive(volume['id']):
        manager.redrive_stale_operations(ctx, timeout=100)
        assert _state(volume['id'])[0] == 'downloading'
    manager.redrive_stale_operations(ctx, timeout=100)
    assert _state(volume['id']) == ('reserved', True, _state(
        volume['id'])[2], False)
    assert helpers.db_volume(volume['id']).image_metadata['image_id'] == \
        image.id
    assert volume_content(aio, volume['id'])[:4 * MiB] == disk_bytes(
        b'stale')
    assert [e[0]['status'] for _v, e in _reimaged_events(events)] == \
        ['completed']
