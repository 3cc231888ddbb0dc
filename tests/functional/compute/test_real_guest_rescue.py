"""Rescue seen from inside the tiny test guest (tools/guest/): a server
booted from image A and rescued with image B boots B, from the rescue
disk, with its own root disk beside it under its own name; unrescued, it
boots A again from its own disk. The same for a volume-backed server at
2.87. The console is read with os-getConsoleOutput, as a user reads it
(a rescued server's console is the rescue guest's)."""

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import image_helpers

GiB = sh.GiB
TINY_A, TINY_B = 'tether-tiny-a', 'tether-tiny-b'
# m1.micro: 128 MiB (the tiny guest's kernel does not come up in 64), a
# root disk of 1 GB.
FLAVOR = '2'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _boot_disk(console):
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    return bootdisk['name']


def test_a_rescued_guest_boots_the_rescue_image_then_its_own(
        cloud, guest_images):
    user = cloud.project()
    image_a = image_helpers.upload_file(user.conn, guest_images[TINY_A])
    image_b = image_helpers.upload_file(user.conn, guest_images[TINY_B])
    server = sh.boot_image(user, image_a, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    up = console.wait_up(TINY_A)
    assert set(console.boot_disks(up)) == {'sda'}
    assert _boot_disk(console) == 'sda'

    # Rescued with B: the guest boots B from the rescue disk (the
    # image's own 19 MiB), its root disk beside it. (The guest's kernel
    # names its SCSI disks in the order their probes end, which two
    # disks may finish either way: they are told apart by size.)
    resp = user.action(server.id, {'rescue': {
        'rescue_image_ref': image_b.id}})
    assert resp.status_code == 200, resp.text
    user.wait_server(server.id, 'RESCUE')
    # The console log starts again with each start of the guest.
    up = console.wait_up(TINY_B)
    disks = console.boot_disks(up)
    assert len(disks) == 2
    sizes = {name: disk['bytes'] for name, disk in disks.items()}
    assert sorted(sizes.values())[1] == 1 * GiB
    assert sizes[_boot_disk(console)] < 1 * GiB
    rescued = '\n'.join(console.lines())
    assert 'marker=%s' % TINY_A not in rescued

    # Unrescued: A again, from its own disk, the only one.
    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')
    up = console.wait_up(TINY_A)
    assert set(console.boot_disks(up)) == {'sda'}
    assert _boot_disk(console) == 'sda'
    print('rescued: booted %s from sdb; unrescued: %s from sda'
          % (TINY_B, TINY_A))


def test_a_volume_backed_guest_is_rescued_at_2_87(cloud, guest_images):
    user = cloud.project()
    image_a = image_helpers.upload_file(user.conn, guest_images[TINY_A])
    image_b = image_helpers.upload_file(
        user.conn, guest_images[TINY_B], hw_rescue_bus='scsi',
        hw_rescue_device='disk')
    root = user.volume(size=1, image_id=image_a.id)
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(TINY_A)

    resp = user.action(server.id, {'rescue': {
        'rescue_image_ref': image_b.id}}, version='2.87')
    assert resp.status_code == 200, resp.text
    user.wait_server(server.id, 'RESCUE')
    up = console.wait_up(TINY_B)
    disks = console.boot_disks(up)
    # The root volume beside the rescue disk, with its serial (the
    # volume's ID); the guest booted from the other one.
    names = guest_console.by_serial(disks)
    assert set(names) == {root['id'], ''}
    assert _boot_disk(console) == names['']

    user.conn.compute.unrescue_server(server)
    user.wait_server(server.id, 'ACTIVE')
    up = console.wait_up(TINY_A)
    assert guest_console.by_serial(console.boot_disks(up)) == {
        root['id']: 'sda'}
    assert _boot_disk(console) == 'sda'
