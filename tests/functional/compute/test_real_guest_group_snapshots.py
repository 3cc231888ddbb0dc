"""A group snapshot of a group whose volumes a running guest holds:
the attached volume's snapshot is taken by the guest's compute host
(os-assisted-volume-snapshots), the detached one's by the backend, and
a group made of the group snapshot has what each held then, seen from
inside the guest. Real HTTP, RPC, libvirt, QEMU (TCG) and qemu-img.
"""

import uuid

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import image_helpers
from tests.functional.volume import group_helpers as gh

MARKER = 'tether-tiny-a'
FLAVOR = '2'               # m1.micro, 128 MiB (see test_real_guest.py)


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _write(console, disk, text):
    rc, out = console.command(
        "printf '%s\\n' | dd of=/dev/%s bs=512 count=1 conv=notrunc,sync "
        "2>/dev/null && sync && blockdev --flushbufs /dev/%s"
        % (text, disk, disk))
    assert rc == 0, out


def _read(console, disk):
    rc, out = console.command(
        'echo 3 > /proc/sys/vm/drop_caches; dd if=/dev/%s bs=512 count=1 '
        '2>/dev/null | head -n 1' % disk)
    assert rc == 0, out
    return out[0] if out else ''


def _attach(user, console, server, volume_id):
    mark = console.mark()
    user.conn.compute.create_volume_attachment(server, volume_id=volume_id)
    changed, disks = console.wait_disks_changed(mark, field='added')
    (added,) = guest_console.names(changed['added'])
    assert disks[added]['serial'] == volume_id
    user.wait_volume(volume_id, 'in-use')
    return added


def _detach(user, server, volume_id):
    user.conn.compute.delete_volume_attachment(volume_id, server)
    user.wait_volume(volume_id, 'available')


def test_a_group_snapshot_of_a_volume_the_guest_writes(cloud, aio,
                                                       guest_images, wait):
    admin_http = aio.http('admin', 'admin', version=gh.VERSION)
    gtype, vtype = gh.group_type(admin_http), gh.volume_type(admin_http)
    user = cloud.project()
    http = user.volumes(gh.VERSION)
    image = image_helpers.upload_file(user.conn, guest_images[MARKER])
    server = user.boot(user.volume(size=1, image_id=image.id),
                       flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(MARKER)

    group = gh.group(http, gtype['id'], [vtype['id']], wait_for=wait)
    attached = gh.volume(http, group['id'], vtype['id'], wait)
    detached = gh.volume(http, group['id'], vtype['id'], wait)
    disk = _attach(user, console, server, attached['id'])
    before = 'before-%s' % uuid.uuid4().hex[:8]
    _write(console, disk, before)
    with open(aio.volume_path(detached['id']), 'r+b') as f:
        f.write(b'detached before\n')

    group_snapshot = gh.group_snapshot(http, group['id'], wait_for=wait)
    assert user.show_volume(attached['id'])['status'] == 'in-use'
    after = 'after-%s' % uuid.uuid4().hex[:8]
    _write(console, disk, after)
    assert _read(console, disk) == after
    snapshots = {s['volume_id']: s for s in http.get(
        '/snapshots/detail').json()['snapshots']
        if s['group_snapshot_id'] == group_snapshot['id']}
    assert sorted(snapshots) == sorted([attached['id'], detached['id']])
    # The guest's disk is the attached volume's overlay now (QEMU holds
    # it); the detached volume's overlay is the backend's.
    assert sh.locked('%s.%s' % (aio.volume_path(attached['id']),
                                snapshots[attached['id']]['id']), 'qcow2')

    resp = http.post('/groups/action', json={'create-from-src': {
        'group_snapshot_id': group_snapshot['id']}})
    assert resp.status_code == 202, resp.text
    made = gh.wait_status(http, '/groups/%s?list_volume=true'
                          % resp.json()['group']['id'], 'group',
                          'available', wait)
    new = {http.get('/volumes/%s' % v).json()['volume']['snapshot_id']: v
           for v in made['volumes']}
    copy = new[snapshots[attached['id']]['id']]
    copy_disk = _attach(user, console, server, copy)
    assert _read(console, copy_disk) == before
    assert _read(console, disk) == after
    other = new[snapshots[detached['id']]['id']]
    other_disk = _attach(user, console, server, other)
    assert _read(console, other_disk) == 'detached before'

    # Everything goes: the copies' group, the group snapshot (the
    # attached volume's overlay merged under the running guest), the
    # group with its volumes once detached.
    for volume_id in (copy, other):
        _detach(user, server, volume_id)
    assert gh.delete_group(http, made['id'], True).status_code == 202
    gh.wait_gone(http, '/groups/%s' % made['id'], wait)
    assert http.delete('/group_snapshots/%s' % group_snapshot['id']
                       ).status_code == 202
    gh.wait_gone(http, '/group_snapshots/%s' % group_snapshot['id'], wait)
    assert _read(console, disk) == after
    _detach(user, server, attached['id'])
    assert gh.delete_group(http, group['id'], True).status_code == 202
    gh.wait_gone(http, '/groups/%s' % group['id'], wait)
    for volume in (attached, detached):
        gh.wait_gone(http, '/volumes/%s' % volume['id'], wait)
