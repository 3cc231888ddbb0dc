"""Volumes made of snapshots (``snapshot_id``) and of other volumes
(``source_volid``, clones) over HTTP: the data they hold, the sizes,
types and zones they take, errors, and the deletes refused while a
volume is being made of what they delete.

The data is written with real tools: into the raw file of a detached
volume directly, and into the qcow2 overlay a snapshot made with
``qemu-io``, as a guest's QEMU would write it.
"""

import os
import subprocess
import uuid

from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh
from tether.db.volume import volume as db_volumes

BEFORE = b'before the snapshot '
AFTER = b'after the snapshot!!'


def _write_raw(path, data):
    with open(path, 'r+b') as f:
        f.write(data)


def _write_overlay(path, data):
    """``data`` at offset 0 of the qcow2 file ``path`` (the volume's
    active file), through QEMU's block layer."""
    pattern = path + '.pattern'
    with open(pattern, 'wb') as f:
        f.write(data)
    try:
        subprocess.run(['qemu-io', '-f', 'qcow2', '-c',
                        'write -s %s 0 %d' % (pattern, len(data)), path],
                       check=True, capture_output=True)
    finally:
        os.unlink(pattern)


def _read(path, length):
    with open(path, 'rb') as f:
        return f.read(length)


def _source_with_a_snapshot(aio, http, wait):
    """A volume that held BEFORE when its snapshot was taken and holds
    AFTER now; (volume, snapshot id)."""
    volume = helpers.create_volume(http, wait_for=wait, name='src',
                                   metadata={'k': 'v'})
    _write_raw(aio.volume_path(volume['id']), BEFORE)
    snapshot_id = sh.snapshot(http, volume['id'], wait_for=wait)['id']
    active = '%s.%s' % (aio.volume_path(volume['id']), snapshot_id)
    _write_overlay(active, AFTER)
    return volume, snapshot_id


def test_volumes_made_of_a_snapshot_and_of_a_volume_hold_their_data(
        aio, wait):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project)
    source, snapshot_id = _source_with_a_snapshot(aio, http, wait)
    # openstacksdk, as users call it; the size is the snapshot's.
    made = conn.block_storage.create_volume(snapshot_id=snapshot_id,
                                            name='of-snapshot')
    made = conn.block_storage.wait_for_status(made, 'available',
                                              interval=0.05, wait=60)
    assert (made.size, made.snapshot_id, made.source_volume_id) == (
        1, snapshot_id, None)
    assert _read(aio.volume_path(made.id), len(BEFORE)) == BEFORE
    # A clone, larger than its source.
    clone = helpers.create_volume(http, size=2, wait_for=wait,
                                  source_volid=source['id'])
    assert (clone['size'], clone['source_volid'], clone['snapshot_id']) == (
        2, source['id'], None)
    assert helpers.virtual_size(aio.volume_path(clone['id'])) == (
        2 * helpers.GiB, 'raw')
    assert _read(aio.volume_path(clone['id']), len(AFTER)) == AFTER
    # They take their source's type and zone, not its metadata.
    shown = http.get('/volumes/%s' % clone['id']).json()['volume']
    assert (shown['volume_type'], shown['availability_zone'],
            shown['metadata']) == (source['volume_type'],
                                   source['availability_zone'], {})
    assert helpers.usage(http.project) == {'volumes': (3, 0),
                                           'gigabytes': (4 + 1, 0)}
    # Each is a volume of its own: the source goes, they stay.
    resp = http.delete('/volumes/%s?cascade=true' % source['id'])
    assert resp.status_code == 202, resp.text
    wait(lambda: http.get('/volumes/%s' % source['id']).status_code ==
         404, what='source deleted')
    assert _read(aio.volume_path(made.id), len(BEFORE)) == BEFORE
    assert _read(aio.volume_path(clone['id']), len(AFTER)) == AFTER


def test_bad_sources_are_refused_and_leave_nothing(aio, wait):
    http = aio.http()
    admin = aio.http('admin', http.project, roles=['admin'])
    source, snapshot_id = _source_with_a_snapshot(aio, http, wait)
    before = helpers.usage(http.project)
    missing = str(uuid.uuid4())
    for attrs, status, word in (
            ({'snapshot_id': missing}, 404, missing),
            ({'source_volid': missing}, 404, missing),
            ({'snapshot_id': 'not-a-uuid'}, 400, 'snapshot_id'),
            ({'snapshot_id': snapshot_id, 'source_volid': source['id']},
             400, 'one source'),
            ({'snapshot_id': snapshot_id, 'imageRef': missing}, 400,
             'one source'),
            ({'snapshot_id': snapshot_id, 'size': 1,
              'availability_zone': 'elsewhere'}, 400, 'elsewhere'),
            ({}, 400, 'size')):
        resp = http.post('/volumes', json={'volume': attrs})
        assert word in sh.error(resp, status), attrs
    # Another project's snapshot and volume are not found.
    other = aio.http()
    for attrs in ({'snapshot_id': snapshot_id},
                  {'source_volid': source['id']}):
        assert sh.error(
            other.post('/volumes', json={'volume': attrs}), 404)
    # A snapshot or a volume that is not available.
    resp = admin.post('/snapshots/%s/action' % snapshot_id,
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    assert 'is error' in sh.error(http.post('/volumes', json={
        'volume': {'snapshot_id': snapshot_id}}), 400)
    resp = admin.post('/volumes/%s/action' % source['id'],
                      json={'os-reset_status': {'status': 'error'}})
    assert resp.status_code == 202, resp.text
    assert 'is error' in sh.error(http.post('/volumes', json={
        'volume': {'source_volid': source['id']}}), 400)
    assert helpers.usage(http.project) == before
    assert [v.id for v in helpers.project_volumes(http.project)] == [
        source['id']]


def test_a_size_smaller_than_the_source_is_refused(aio, wait):
    http = aio.http()
    source = helpers.create_volume(http, size=2, wait_for=wait)
    snapshot_id = sh.snapshot(http, source['id'], wait_for=wait)['id']
    for attrs in ({'snapshot_id': snapshot_id, 'size': 1},
                  {'source_volid': source['id'], 'size': 1}):
        message = sh.error(http.post('/volumes', json={'volume': attrs}), 400)
        assert 'of 2G' in message and '1G' in message


def test_what_a_volume_is_being_made_of_is_not_deleted(aio, wait):
    """The backend reads the source's files until the new volume is
    made: a delete of the snapshot or volume it is made of is refused
    meanwhile (the volume is held ``creating`` here, as it is while the
    backend copies)."""
    http = aio.http()
    source, snapshot_id = _source_with_a_snapshot(aio, http, wait)
    made = {}
    for key, value in (('snapshot_id', snapshot_id),
                       ('source_volid', source['id'])):
        volume = helpers.create_volume(http, wait_for=wait,
                                       **{key: value})
        assert db_volumes.conditional_update(
            helpers.admin_context(), volume['id'], {'status': 'creating'},
            ['available'])
        made[key] = volume['id']
    message = sh.error(http.delete('/snapshots/%s' % snapshot_id), 400)
    assert made['snapshot_id'] in message
    message = sh.error(
        http.delete('/volumes/%s?cascade=true' % source['id']), 400)
    assert made['source_volid'] in message
    assert http.get('/snapshots/%s' % snapshot_id).json()['snapshot'][
        'status'] == 'available'
    assert http.get('/volumes/%s' % source['id']).json()['volume'][
        'status'] == 'available'
    for volume_id in made.values():
        assert db_volumes.conditional_update(
            helpers.admin_context(), volume_id, {'status': 'available'},
            ['creating'])
    resp = http.delete('/snapshots/%s' % snapshot_id)
    assert resp.status_code == 202, resp.text


def test_a_clone_racing_the_delete_of_its_source(aio, wait):
    """Either the clone is made and the source's delete refused (or
    done once the clone is made), or the source is deleting and the
    clone refused."""
    for _ in range(3):
        http = aio.http()
        source = helpers.create_volume(http, wait_for=wait)
        clone, delete = helpers.race([
            lambda: http.post('/volumes', json={'volume': {
                'source_volid': source['id']}}),
            lambda: http.delete('/volumes/%s' % source['id'])])
        codes = (clone.status_code, delete.status_code)
        # (Both 202: the clone was made before the delete came; 404: the
        # source was deleted before the create looked.)
        assert codes in ((202, 400), (400, 202), (202, 202), (404, 202)), (
            clone.text, delete.text)
        volumes = (clone.status_code == 202) + (delete.status_code == 400)
        wait(lambda: helpers.usage(http.project)['volumes'][0] == volumes,
             what='usage settled')
