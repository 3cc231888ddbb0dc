"""Snapshots of a volume attached to a running guest, taken and deleted
by the guest's compute host for the volume service (assisted snapshots),
seen from inside the guest.

The tiny guest (tools/guest/) writes a line at the start of its second
disk, the volume, as a user's program would; the volume API takes a
snapshot while the guest runs; the guest writes another line. A volume
made of the snapshot, attached to the same guest, holds the first line
and not the second; the guest kept running and reads its own second
line. Then the snapshots are deleted (a block commit, then a block pull)
while it runs, and taken while it is stopped. Real HTTP, RPC, libvirt,
QEMU (TCG) and qemu-img throughout.
"""

import os
import uuid

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import image_helpers

CONF = cfg.CONF
MARKER = 'tether-tiny-a'
FLAVOR = '2'               # m1.micro, 128 MiB (see test_real_guest.py)
SNAPSHOTS = '3.66'         # snapshots of in-use volumes without force


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def stop_asks_the_guest():
    before = CONF.shutdown_timeout
    CONF.set_override('shutdown_timeout', 120)
    yield
    CONF.set_override('shutdown_timeout', before)


def _write(console, disk, text):
    """The guest writes ``text`` at the start of ``disk`` and flushes it
    to the device (what QEMU then holds is on the volume's files)."""
    rc, out = console.command(
        "printf '%s\\n' | dd of=/dev/%s bs=512 count=1 conv=notrunc,sync "
        "2>/dev/null && sync && blockdev --flushbufs /dev/%s"
        % (text, disk, disk))
    assert rc == 0, out


def _read(console, disk):
    """The first line at the start of ``disk``, read past the guest's
    page cache."""
    rc, out = console.command(
        'echo 3 > /proc/sys/vm/drop_caches; dd if=/dev/%s bs=512 count=1 '
        '2>/dev/null | head -n 1' % disk)
    assert rc == 0, out
    return out[0] if out else ''


def _snapshot(user, volume_id, wait):
    http = user.volumes(SNAPSHOTS)
    resp = http.post('/snapshots', json={'snapshot': {
        'volume_id': volume_id, 'name': 'online'}})
    assert resp.status_code == 202, resp.text
    snapshot_id = resp.json()['snapshot']['id']

    def available():
        body = http.get('/snapshots/%s' % snapshot_id).json()['snapshot']
        assert body['status'] != 'error', body
        return body if body['status'] == 'available' else None
    return wait(available, what='snapshot %s available' % snapshot_id)


def _delete_snapshot(user, snapshot_id, wait):
    http = user.volumes(SNAPSHOTS)
    resp = http.delete('/snapshots/%s' % snapshot_id)
    assert resp.status_code == 202, resp.text

    def gone():
        resp = http.get('/snapshots/%s' % snapshot_id)
        if resp.status_code == 200:
            assert resp.json()['snapshot']['status'] != 'error_deleting'
        return resp.status_code == 404
    wait(gone, what='snapshot %s gone' % snapshot_id)


def _files(aio, volume_id):
    base = os.path.basename(aio.volume_path(volume_id))
    return sorted(n for n in os.listdir(aio.share_dir)
                  if n == base or n.startswith(base + '.'))


def _by_serial(disks, volume_id):
    (name,) = [n for n, d in disks.items() if d['serial'] == volume_id]
    return name


def _attach(user, console, server, volume_id):
    mark = console.mark()
    user.conn.compute.create_volume_attachment(server, volume_id=volume_id)
    changed, disks = console.wait_disks_changed(mark, field='added')
    (added,) = guest_console.names(changed['added'])
    assert disks[added]['serial'] == volume_id
    user.wait_volume(volume_id, 'in-use')
    return added


def test_snapshots_of_a_volume_the_guest_writes(cloud, guest_images, wait,
                                                stop_asks_the_guest):
    user = cloud.project()
    image = image_helpers.upload_file(user.conn, guest_images[MARKER])
    root = user.volume(size=1, image_id=image.id)
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(MARKER)
    data = user.volume(size=1)
    disk = _attach(user, console, server, data['id'])
    before, after = ('before-%s' % uuid.uuid4().hex[:8],
                     'after-%s' % uuid.uuid4().hex[:8])

    # Taken while the guest writes the volume: it stays in-use, and the
    # guest goes on writing (to the new overlay).
    _write(console, disk, before)
    first = _snapshot(user, data['id'], wait)
    assert user.show_volume(data['id'])['status'] == 'in-use'
    _write(console, disk, after)
    assert _read(console, disk) == after
    base = os.path.basename(user.aio.volume_path(data['id']))
    assert _files(user.aio, data['id']) == sorted(
        [base, base + '.info', '%s.%s' % (base, first['id'])])
    assert sh.locked(user.aio.volume_path(data['id']) + '.' + first['id'],
                     'qcow2')

    # A volume made of the snapshot has what the guest wrote before it.
    resp = user.volumes(SNAPSHOTS).post('/volumes', json={'volume': {
        'snapshot_id': first['id'], 'name': 'of-the-snapshot'}})
    assert resp.status_code == 202, resp.text
    copy = resp.json()['volume']
    user.wait_volume(copy['id'], 'available')
    copy_disk = _attach(user, console, server, copy['id'])
    assert _read(console, copy_disk) == before
    assert _read(console, disk) == after

    # A second snapshot; the first one goes (its overlay is committed
    # into the base file under the running guest), then the second
    # (the base file is pulled into the file the guest writes).
    second = _snapshot(user, data['id'], wait)
    _delete_snapshot(user, first['id'], wait)
    assert _read(console, disk) == after
    assert _files(user.aio, data['id']) == sorted(
        [base, base + '.info', '%s.%s' % (base, second['id'])])
    _delete_snapshot(user, second['id'], wait)
    assert _read(console, disk) == after
    # The guest writes the second overlay alone now; the info file
    # names it.
    assert _files(user.aio, data['id']) == sorted(
        [base + '.info', '%s.%s' % (base, second['id'])])
    assert user.show_volume(data['id'])['status'] == 'in-use'

    # Taken while the server is stopped: its definition follows, and the
    # guest starts on the new overlay with its data.
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    third = _snapshot(user, data['id'], wait)
    user.conn.compute.start_server(server)
    user.wait_server(server.id)
    # (The guest names its disks again at boot: by serial.)
    disk = _by_serial(console.boot_disks(console.wait_up(MARKER)),
                      data['id'])
    assert _read(console, disk) == after
    assert sh.locked(user.aio.volume_path(data['id']) + '.' + third['id'],
                     'qcow2')
    _delete_snapshot(user, third['id'], wait)
    assert _read(console, disk) == after

    # Detached and attached again, the volume reads the same. (The guest
    # is seen to lose the disk first: a detach and an attach between two
    # of its looks at its disks would leave it nothing to report.)
    mark = console.mark()
    user.conn.compute.delete_volume_attachment(data['id'], server)
    changed, _disks = console.wait_disks_changed(mark, field='removed')
    assert guest_console.names(changed['removed']) == [disk], changed
    user.wait_volume(data['id'], 'available')
    disk = _attach(user, console, server, data['id'])
    assert _read(console, disk) == after
