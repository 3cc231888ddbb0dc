"""POST and DELETE /os-assisted-volume-snapshots as the volume service
sends them (the service role), with their samples, and what they refuse.

The volume service's part (the overlay file, the snapshot) is done here
by hand, as the remotefs driver does it; the guests have no OS (the
end-to-end story with the tiny Linux guest is test_real_guest_snapshots.
py). The compute host's answer, os-update_snapshot_status, names a
snapshot the volume service does not have here: it is refused there and
logged, which changes nothing.
"""

import os
import uuid

import pytest

from tests.functional.api_samples import samples
from tests.functional.compute import server_helpers as sh
from tether.db.compute import instance as db_instances
from tether.drivers import qemu_img
from tests.functional import helpers

VERSION = '2.96'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _service(aio):
    return aio.compute_http('volume-service', 'service',
                            roles=['service'], version=VERSION)


def _chain(server_id, volume_id):
    """The files of the guest's disk of the volume (names, the written
    one first), as libvirt says."""
    from tether.drivers.virt.libvirt import parse
    xml = sh.virsh('dumpxml', sh.domain(server_id)).stdout
    chain = parse.disk_chain(xml, volume_id)
    return [os.path.basename(f) for f in chain.files]


def _server_with_volume(cloud):
    user = cloud.project()
    server = user.boot()
    data = user.volume()
    user.conn.compute.create_volume_attachment(server, volume_id=data['id'])
    user.wait_volume(data['id'], 'in-use')
    return user, server, data


def _create_body(volume_id, snapshot_id, new_file):
    return {'snapshot': {'volume_id': volume_id, 'create_info': {
        'snapshot_id': snapshot_id, 'type': 'qcow2', 'new_file': new_file,
        'id': snapshot_id}}}


def test_the_assisted_snapshots_story(cloud, wait):
    user, server, data = _server_with_volume(cloud)
    path = cloud.aio.volume_path(data['id'])
    base = os.path.basename(path)
    snapshot_id = str(uuid.uuid4())
    overlay = '%s.%s' % (base, snapshot_id)
    qemu_img.create_overlay(path + '.' + snapshot_id, base, 'raw',
                            qemu_img.virtual_size(path, 'raw'))
    os.chmod(path + '.' + snapshot_id, os.stat(path).st_mode)
    story = samples.Samples('compute', _service(cloud.aio),
                            volume_id=data['id'], snapshot_id=snapshot_id)

    story.exchange('assisted-volume-snapshots-create', 'POST',
                   '/os-assisted-volume-snapshots',
                   _create_body(data['id'], snapshot_id, overlay),
                   version=VERSION)
    wait(lambda: _chain(server.id, data['id']) == [overlay, base],
         what='the guest writes the overlay')
    assert sh.locked(path + '.' + snapshot_id, 'qcow2')

    delete_info = ('{"file_to_merge": null, "merge_target_file": null, '
                   '"type": "qcow2", "volume_id": "%s"}' % data['id'])
    story.exchange('assisted-volume-snapshots-delete', 'DELETE',
                   '/os-assisted-volume-snapshots/%s?delete_info=%s'
                   % (snapshot_id, delete_info.replace(' ', '%20')
                      .replace('"', '%22')), version=VERSION)
    wait(lambda: _chain(server.id, data['id']) == [overlay],
         what='the base file pulled into the overlay')


def test_what_is_refused(cloud, aio):
    user, server, data = _server_with_volume(cloud)
    service = _service(aio)
    snapshot_id = str(uuid.uuid4())
    good = _create_body(data['id'], snapshot_id, 'volume-x.y')

    def refused(resp, status, code):
        assert resp.status_code == status, resp.text
        assert next(iter(resp.json().values()))['error_code'] == code

    # Users may not; the service role and administrators may.
    member = user.compute(VERSION)
    refused(member.post('/os-assisted-volume-snapshots', json=good), 403,
            'tether.policy.not_authorized')
    refused(member.delete('/os-assisted-volume-snapshots/%s' % snapshot_id),
            403, 'tether.policy.not_authorized')

    # Bodies: file names only, qcow2 only, UUIDs.
    for bad in ('../volume-x', '.', '..', 'a/b', ''):
        body = _create_body(data['id'], snapshot_id, bad)
        refused(service.post('/os-assisted-volume-snapshots', json=body),
                400, 'api.validation.failed')
    body = _create_body(data['id'], snapshot_id, 'f')
    body['snapshot']['create_info']['type'] = 'raw'
    refused(service.post('/os-assisted-volume-snapshots', json=body), 400,
            'api.validation.failed')
    # A volume on no server.
    other = _create_body(str(uuid.uuid4()), snapshot_id, 'f')
    refused(service.post('/os-assisted-volume-snapshots', json=other), 400,
            'compute.assisted.volume_not_attached')

    # The delete's delete_info: present, JSON, as Cinder sends it.
    url = '/os-assisted-volume-snapshots/%s' % snapshot_id
    refused(service.delete(url), 400, 'compute.assisted.invalid_delete_info')
    refused(service.delete(url + '?delete_info=%7B'), 400,
            'compute.assisted.invalid_delete_info')
    refused(service.delete(url + '?delete_info=%7B%7D'), 400,
            'api.validation.failed')
    refused(service.delete(
        url + '?delete_info=%7B%22volume_id%22%3A%22' + data['id'] +
        '%22%2C%22type%22%3A%22qcow2%22%2C%22file_to_merge%22%3A%22..%22'
        '%2C%22merge_target_file%22%3Anull%7D'), 400, 'api.validation.failed')
    # Unknown query keys: refused from 2.75, ignored before (then the
    # missing delete_info is what is refused).
    refused(service.delete(url + '?foo=1'), 400, 'api.validation.failed')
    refused(service.delete(url + '?foo=1', headers={
        'OpenStack-API-Version': 'compute 2.74'}), 400,
        'compute.assisted.invalid_delete_info')

    # A server with a task under way cannot act now.
    db_instances.update(helpers.admin_context(), server.id,
                        {'task_state': 'rebooting'})
    try:
        refused(service.post('/os-assisted-volume-snapshots', json=good),
                400, 'compute.assisted.server_not_ready')
    finally:
        db_instances.update(helpers.admin_context(), server.id,
                            {'task_state': None})
    # Nothing of this reached the guest.
    assert _chain(server.id, data['id']) == [
        os.path.basename(aio.volume_path(data['id']))]
