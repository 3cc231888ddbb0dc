"""Servers snapshotted into images, seen from inside the tiny Linux
guest (tools/guest/): what the guest wrote to its root disk before the
snapshot is on the disk of a server booted from the image; what it wrote
after is not; and the snapshotted guest kept running.

Both kinds of server: one on a local root disk (its host copies the
disk, pausing the guest meanwhile) and one booted from a volume (the
volume service snapshots the volume through the guest's host). Real
HTTP, RPC, Glance, qemu-img, libvirt and QEMU (TCG) throughout.
"""

import uuid

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional.compute import test_server_images as si
from tests.functional import guest_console
from tests.functional import image_helpers

MARKER = 'tether-tiny-a'
FLAVOR = '2'               # m1.micro, 128 MiB and a root disk of 1 GB
# Where on the root disk the guest writes: 512 MiB in, far past the
# tiny image's boot files.
SECTOR = 1024 * 1024


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _root(console, up):
    """The guest's name of its root disk: the one it booted with alone,
    or the volume's."""
    disks = console.boot_disks(up)
    assert len(disks) == 1, disks
    return next(iter(disks))


def _write(console, disk, text):
    rc, out = console.command(
        "printf '%s\\n' | dd of=/dev/%s bs=512 seek=%d count=1 "
        "conv=notrunc,sync 2>/dev/null && sync && blockdev --flushbufs "
        "/dev/%s" % (text, disk, SECTOR, disk))
    assert rc == 0, out


def _read(console, disk):
    rc, out = console.command(
        'echo 3 > /proc/sys/vm/drop_caches; dd if=/dev/%s bs=512 skip=%d '
        'count=1 2>/dev/null | head -n 1' % (disk, SECTOR))
    assert rc == 0, out
    return out[0] if out else ''


def _texts():
    return ('before-%s' % uuid.uuid4().hex[:8],
            'after-%s' % uuid.uuid4().hex[:8])


def _boot_from(user, image_id):
    server = user.conn.compute.create_server(
        name='from-snap-' + uuid.uuid4().hex[:6], image_id=image_id,
        flavor_id=FLAVOR, networks='none')
    user.track(server.id)
    return user.wait_server(server.id)


def test_a_guest_on_a_local_disk_into_an_image(cloud, guest_images):
    user = cloud.project()
    base = image_helpers.upload_file(user.conn, guest_images[MARKER])
    server = sh.boot_image(user, base, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    disk = _root(console, console.wait_up(MARKER))
    before, after = _texts()
    _write(console, disk, before)

    resp = si.create_image(user, server.id, name='tiny-snap')
    image_id = resp.json()['image_id']
    si.wait_image(user, image_id)
    user.wait_server(server.id)
    # The guest ran on after its pause, and writes on.
    assert sh.domain_state(server.id) == 'running'
    _write(console, disk, after)
    assert _read(console, disk) == after

    copy = _boot_from(user, image_id)
    copy_console = guest_console.GuestConsole(user.conn, copy)
    copy_disk = _root(copy_console, copy_console.wait_up(MARKER))
    assert _read(copy_console, copy_disk) == before


def test_a_volume_backed_guest_into_an_image(cloud, guest_images, wait):
    user = cloud.project()
    base = image_helpers.upload_file(user.conn, guest_images[MARKER])
    root = user.volume(size=1, image_id=base.id)
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    disk = _root(console, console.wait_up(MARKER))
    before, after = _texts()
    _write(console, disk, before)

    resp = si.create_image(user, server.id, name='tiny-volume-snap')
    image_id = resp.json()['image_id']
    si.wait_image(user, image_id)
    mapping = si.raw_image(user, image_id)['block_device_mapping']
    snapshot_id = si.json.loads(mapping)[0]['snapshot_id']
    http = user.volumes('3.66')

    def available():
        snap = http.get('/snapshots/%s' % snapshot_id).json()['snapshot']
        assert snap['status'] != 'error', snap
        return snap['status'] == 'available'
    wait(available, what='snapshot %s available' % snapshot_id)
    # The guest went on writing its volume (a new overlay of it).
    _write(console, disk, after)
    assert _read(console, disk) == after

    copy = _boot_from(user, image_id)
    copy_console = guest_console.GuestConsole(user.conn, copy)
    copy_disk = _root(copy_console, copy_console.wait_up(MARKER))
    assert _read(copy_console, copy_disk) == before
    shown = user.server(copy.id)
    (attached,) = shown['os-extended-volumes:volumes_attached']
    assert user.show_volume(attached['id'])['snapshot_id'] == snapshot_id
    cloud.volumes.append((user, attached['id']))
