"""An administrator's force delete of a volume (os-force_delete, and
DELETE ?force=true from 3.23): from any status but those another
service's operation holds; refused, with nothing changed, for an
attached volume, one with snapshots or in a group; a volume caught in
the middle of its create or of an image written into it is deleted when
that work ends, leaving no file and its quota given back."""

import contextlib
import errno
import os
import stat
import time
import uuid

import openstack
import pytest

from tests.functional import cli as cli_mod
from tests.functional import helpers
from tests.functional import image_helpers
from tests.functional.volume import group_helpers as gh
from tests.functional.volume import snapshot_helpers as sh

V323 = 'volume 3.23'


def _action(http, volume_id):
    return http.post('/volumes/%s/action' % volume_id,
                     json={'os-force_delete': {}})


def _error(resp, status):
    assert resp.status_code == status, resp.text
    return next(iter(resp.json().values()))['message']


def _gone(http, volume_id, wait):
    wait(lambda: http.get('/volumes/%s' % volume_id).status_code == 404,
         what='volume %s gone' % volume_id)


def _reset(admin, volume_id, status):
    resp = admin.post('/volumes/%s/action' % volume_id,
                      json={'os-reset_status': {'status': status}})
    assert resp.status_code == 202, resp.text


def _status(http, volume_id):
    return http.get('/volumes/%s' % volume_id).json()['volume']['status']


@pytest.mark.parametrize('status', ['creating', 'attaching', 'error',
                                    'maintenance'])
def test_force_delete_from_a_status_tempest_resets(aio, wait, status):
    """As tempest's admin test_volumes_actions: reset, then force
    delete with openstacksdk; the file and the quota go."""
    http = aio.http()
    conn = aio.sdk('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    path = aio.volume_path(volume['id'])
    assert os.path.exists(path)
    _reset(aio.http('admin', http.project, roles=['admin']), volume['id'],
           status)
    conn.block_storage.get_volume(volume['id']).force_delete(
        conn.block_storage)
    _gone(http, volume['id'], wait)
    assert not os.path.exists(path)
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}


def test_delete_with_force_from_3_23(aio, wait):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    _reset(admin, volume['id'], 'maintenance')
    # Below 3.23 force is ignored (as in Cinder): an ordinary delete,
    # refused in maintenance.
    assert 'maintenance' in _error(
        admin.delete('/volumes/%s?force=true' % volume['id']), 400)
    # The owner is no administrator: 403, the rule named.
    assert 'volume:force_delete' in _error(
        http.delete('/volumes/%s?force=true' % volume['id'],
                    headers={'OpenStack-API-Version': V323}), 403)
    assert _status(http, volume['id']) == 'maintenance'
    resp = admin.delete('/volumes/%s?force=true' % volume['id'],
                        headers={'OpenStack-API-Version': V323})
    assert resp.status_code == 202, resp.text
    _gone(http, volume['id'], wait)
    assert helpers.usage(http.project)['volumes'] == (0, 0)


def test_openstack_volume_delete_force(aio, wait, tmp_path):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    volume = helpers.create_volume(http, wait_for=wait)
    _reset(admin, volume['id'], 'error_backing-up')
    cli = cli_mod.CLI(aio, tmp_path, 'admin', http.project, roles=['admin'])
    cli.run('volume', 'delete', '--force', volume['id'])
    _gone(http, volume['id'], wait)
    assert not os.path.exists(aio.volume_path(volume['id']))


def test_refusals_name_the_problem_and_change_nothing(aio, wait):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    v344 = {'OpenStack-API-Version': 'volume 3.44'}
    assert str(uuid.UUID(int=9)) in _error(
        _action(admin, str(uuid.UUID(int=9))), 404)
    volume = helpers.create_volume(http, wait_for=wait)
    vid = volume['id']
    # Not an administrator: 403 with the rule; another project's: 404.
    assert 'volume_admin_actions:force_delete' in _error(
        _action(http, vid), 403)
    assert _action(aio.http(), vid).status_code == 404
    # The body: null or an empty object.
    assert 'os-force_delete' in _error(admin.post(
        '/volumes/%s/action' % vid, json={'os-force_delete': {'x': 1}}),
        400)
    # Attached (an attachment reserved): refused, the attachment named.
    resp = http.post('/attachments', headers=v344, json={'attachment': {
        'volume_uuid': vid, 'instance_uuid': str(uuid.uuid4())}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    assert attachment['id'] in _error(_action(admin, vid), 400)
    assert _status(http, vid) == 'reserved'
    assert http.delete('/attachments/%s' % attachment['id'],
                       headers=v344).ok
    # With a snapshot: refused.
    snapshot = sh.snapshot(http, vid, wait_for=wait)
    assert 'snapshot' in _error(_action(admin, vid), 400)
    assert _status(http, vid) == 'available'
    assert http.delete('/snapshots/%s' % snapshot['id']).ok
    wait(lambda: http.get('/snapshots/%s' % snapshot['id']).status_code
         == 404, what='snapshot gone')
    # An operation of another service holds it (a backup being made):
    # refused, whatever force says.
    for held in ('backing-up', 'restoring-backup', 'awaiting-transfer',
                 'extending', 'retyping'):
        _reset(admin, vid, held)
        assert held in _error(_action(admin, vid), 400)
        assert _status(http, vid) == held
    _reset(admin, vid, 'available')
    assert os.path.exists(aio.volume_path(vid))
    assert helpers.usage(http.project)['volumes'] == (1, 0)


def test_in_a_group_is_refused(aio, wait):
    http = aio.http(version=gh.VERSION)
    admin = aio.http('admin', http.project, roles=['admin'])
    cloud_admin = aio.http('admin', 'admin', version=gh.VERSION)
    gtype = gh.group_type(cloud_admin)
    vtype = gh.volume_type(cloud_admin)
    group = gh.group(http, gtype['id'], [vtype['id']], wait_for=wait)
    volume = gh.volume(http, group['id'], vtype['id'], wait)
    assert group['id'] in _error(_action(admin, volume['id']), 400)
    assert _status(http, volume['id']) == 'available'


def _qemu_img_waits_on(path):
    """Whether a qemu-img process of this machine names ``path`` (and
    waits, in its open(2), for a writer of the FIFO there)."""
    wanted = os.fsencode(path)
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                argv = f.read().split(b'\0')
        except OSError:
            continue
        if wanted in argv and os.path.basename(argv[0]) == b'qemu-img':
            return True
    return False


@contextlib.contextmanager
def _held_open(path):
    """A volume's file at ``path`` swapped for a FIFO, until released:
    the qemu-img that opens it to read waits in open(2) for a writer, a
    real hold of the manager's work, so that a force delete lands in the
    middle of it. Released, qemu-img finds an empty FIFO (it refuses a
    file that is not regular) and the work ends in failure. The file is
    put back at the end if it is still wanted there. (The image API's
    stored file is held by image_helpers.fed_slowly.)"""
    aside = path + '.held-by-test'
    os.rename(path, aside)
    os.mkfifo(path)
    released = []

    def release(timeout=30):
        """A writer that opens and closes: the reader's open returns.
        Until a reader is there (the image API may reach its open after
        the test's wait): the open of a FIFO without a reader fails."""
        if released:
            return
        released.append(True)
        deadline = time.monotonic() + timeout
        while True:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                return
            except OSError as exc:
                if exc.errno != errno.ENXIO or \
                        time.monotonic() > deadline:
                    return
                time.sleep(0.02)
    try:
        yield release
    finally:
        release()
        if os.path.lexists(path) and stat.S_ISFIFO(os.lstat(path).st_mode):
            os.unlink(path)
            os.rename(aside, path)
        elif os.path.exists(aside):
            os.unlink(aside)


def _force_delete_midway(aio, wait, http, volume_id, entered, release,
                         kept=0):
    admin = aio.http('admin', http.project, roles=['admin'])
    wait(entered, what='the manager held in the middle of its work')
    assert _action(admin, volume_id).status_code == 202
    # The manager still works on it: deleting, until the work ends.
    assert _status(http, volume_id) == 'deleting'
    release()
    _gone(http, volume_id, wait)
    assert not os.path.exists(aio.volume_path(volume_id))
    assert helpers.usage(http.project) == {'volumes': (kept, 0),
                                           'gigabytes': (kept, 0)}


def test_a_volume_being_created(aio, wait):
    # A clone: creating while qemu-img converts its source into it (a new
    # raw file is made without a process); its source's file is a FIFO
    # that holds qemu-img's open.
    http = aio.http()
    source = helpers.create_volume(http, wait_for=wait)
    source_path = aio.volume_path(source['id'])
    with _held_open(source_path) as release:
        volume = helpers.create_volume(http, source_volid=source['id'])
        assert _status(http, volume['id']) == 'creating'
        _force_delete_midway(
            aio, wait, http, volume['id'],
            lambda: _qemu_img_waits_on(source_path), release, kept=1)
    assert _status(http, source['id']) == 'available'
    assert helpers.virtual_size(source_path) == (helpers.GiB, 'raw')


def test_a_volume_being_written_from_an_image(aio, wait):
    # The image's data comes through the image API, held by the test.
    http = aio.http()
    conn = aio.sdk(http.user, http.project)
    image = image_helpers.upload(conn, helpers.disk_bytes(b'force'))
    with image_helpers.fed_slowly(aio, image.id) as (entered, release):
        volume = helpers.create_volume(http, imageRef=image.id)

        def release_midway():
            # Force deleted, the volume is still being written: the
            # manager holds its file open, waiting for the image's data.
            assert helpers.holder(aio.volume_path(volume['id'])) is not None
            release()
        _force_delete_midway(aio, wait, http, volume['id'], entered,
                             release_midway)


def test_a_volume_being_uploaded(aio, wait):
    # The volume's own file is a FIFO that holds qemu-img's open.
    http = aio.http()
    conn = aio.sdk(http.user, http.project)
    volume = helpers.create_volume(http, wait_for=wait)
    path = aio.volume_path(volume['id'])
    with _held_open(path) as release:
        resp = http.post('/volumes/%s/action' % volume['id'], json={
            'os-volume_upload_image': {'image_name': 'up-' + volume['id']}})
        assert resp.status_code == 202, resp.text
        image_id = resp.json()['os-volume_upload_image']['image_id']
        _force_delete_midway(aio, wait, http, volume['id'],
                             lambda: _qemu_img_waits_on(path), release)
    # The upload failed on the FIFO: its unfinished image is gone, never
    # left queued.
    with pytest.raises(openstack.exceptions.NotFoundException):
        conn.image.get_image(image_id)


def test_force_delete_races_an_attachment_create(aio, wait):
    """Each wins whole: the volume deleted (the attachment refused, 404
    or 400) or reserved (the force delete refused, naming the
    attachment)."""
    http = aio.http()
    for _ in range(3):
        volume = helpers.create_volume(http, wait_for=wait)
        admin = aio.http('admin', http.project, roles=['admin'])
        owner = aio.http(http.user, http.project)
        delete, attach = helpers.race([
            lambda: _action(admin, volume['id']),
            lambda: owner.post(
                '/attachments', headers={'OpenStack-API-Version':
                                         'volume 3.27'},
                json={'attachment': {'volume_uuid': volume['id'],
                                     'instance_uuid': str(uuid.uuid4())}})])
        if delete.status_code == 202:
            assert attach.status_code in (400, 404), attach.text
            _gone(http, volume['id'], wait)
        else:
            assert delete.status_code == 400, delete.text
            assert attach.status_code == 200, attach.text
            assert _status(http, volume['id']) == 'reserved'
    assert helpers.usage(http.project)['volumes'] == (len(
        http.get('/volumes').json()['volumes']), 0)
