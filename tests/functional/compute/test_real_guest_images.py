"""The tiny Linux guest booted from Glance, both ways, sees its disks.

``tether-tiny-a`` (tools/guest/, built by the guest_images fixture) is
uploaded to the aio's Glance as a user uploads an image; servers boot
from it onto a local root disk and onto a volume the compute host makes

of it. The guest reports on its serial console its image's marker and
its disks, read through os-getConsoleOutput as a user reads it: real
HTTP, RPC, Glance, qemu-img, libvirt and QEMU (TCG).
"""

import time
import uuid

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import image_helpers
from tests.functional import guest_console

GiB = sh.GiB
MARKER = 'tether-tiny-a'
# m1.micro: 128 MiB (the tiny guest's kernel does not come up in 64), a
# root disk of 1 GB.
FLAVOR = '2'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_a_guest_boots_from_its_image_on_a_local_disk(cloud, guest_images):
    user = cloud.project()
    image = image_helpers.upload_file(user.conn, guest_images[MARKER])
    start = time.monotonic()
    server = user.conn.compute.create_server(
        name='tiny-local', image_id=image.id, flavor_id=FLAVOR,
        networks='none')
    user.track(server.id)
    server = user.wait_server(server.id)
    active = time.monotonic() - start
    console = guest_console.GuestConsole(user.conn, server)

    # It boots from the image, on a root disk of the flavor's size (the
    # image is 19 MiB), its first and only disk.
    up = console.wait_up(MARKER)
    booted = time.monotonic() - start
    assert console.boot_disks(up) == {
        'sda': {'bytes': 1 * GiB, 'serial': '', 'bus': 'scsi'}}
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert (bootdisk['name'], bootdisk['part']) == ('sda', 'sda1')

    # A volume attached to it comes after the root disk, and the guest
    # sees it there, with the volume's ID as its serial.
    data = user.volume(size=2)
    mark = console.mark()
    attachment = user.conn.compute.create_volume_attachment(
        server, volume_id=data['id'])
    assert attachment.device == '/dev/sdb'
    changed, disks = console.wait_disks_changed(mark, field='added')
    assert guest_console.names(changed['added']) == ['sdb'], changed
    assert disks['sdb'] == {'bytes': 2 * GiB, 'serial': data['id'],
                            'bus': 'scsi'}
    assert set(disks) == {'sda', 'sdb'}
    [shown] = user.show_volume(data['id'])['attachments']
    assert shown['device'] == '/dev/sdb'

    # And detached, it goes.
    mark = console.mark()
    user.conn.compute.delete_volume_attachment(data['id'], server)
    changed, disks = console.wait_disks_changed(mark, field='removed')
    assert guest_console.names(changed['removed']) == ['sdb'], changed
    user.wait_volume(data['id'], 'available')
    print('boot from image: ACTIVE after %.1fs, guest up after %.1fs'
          % (active, booted))


def test_a_guest_boots_from_a_volume_made_of_its_image(cloud,
                                                       guest_images):
    user = cloud.project()
    image = image_helpers.upload_file(user.conn, guest_images[MARKER])
    start = time.monotonic()
    server = user.conn.compute.create_server(
        name='tiny-bfv-' + uuid.uuid4().hex[:4], image_id='',
        flavor_id=FLAVOR, networks='none', block_device_mapping=[{
            'uuid': image.id, 'source_type': 'image',
            'destination_type': 'volume', 'boot_index': 0,
            'volume_size': 2, 'delete_on_termination': True}])
    user.track(server.id)
    server = user.wait_server(server.id)
    active = time.monotonic() - start
    [attached] = user.server(server.id)[
        'os-extended-volumes:volumes_attached']
    volume_id = attached['id']
    console = guest_console.GuestConsole(user.conn, server)

    # Its root disk is the volume, of the volume's size.
    up = console.wait_up(MARKER)
    booted = time.monotonic() - start
    assert console.boot_disks(up) == {
        'sda': {'bytes': 2 * GiB, 'serial': volume_id, 'bus': 'scsi'}}
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert (bootdisk['name'], bootdisk['part']) == ('sda', 'sda1')
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    user.wait_volume_gone(volume_id)
    print('boot from a volume made of an image: ACTIVE after %.1fs, guest '
          'up after %.1fs' % (active, booted))
