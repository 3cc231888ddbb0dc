"""A guest with an operating system sees what tether does to it.

The other tests boot volumes with nothing on them: QEMU holds the files
and that is all the flows need. Here the root volume holds the tiny test
guest (tools/guest/: Debian's kernel and busybox), which reports on its
serial console the disks it sees and when they change, and powers off
when the ACPI power button is pressed. The test reads those reports
through os-getConsoleOutput, as a user would, over real HTTP, RPC,
libvirt and QEMU (TCG), with one guest through the whole story: boot,
attach, online extend, detach, stop, start.
"""

import os
import time

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import image_helpers

CONF = cfg.CONF
GiB = sh.GiB
MARKER = 'tether-tiny-a'
# m1.micro, 128 MiB: the tiny guest's kernel does not come up in 64.
FLAVOR = '2'
# A generous wait for a guest that answers the power button at once
# (0.3 s on an idle machine): the shared test machines are slow.
SHUTDOWN_TIMEOUT = 120
EXTEND_VERSION = '3.42'       # os-extend of an in-use volume


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def stop_asks_the_guest():
    """A stop presses the power button and waits (the aio of the tests
    powers its OS-less guests off at once)."""
    before = CONF.shutdown_timeout
    CONF.set_override('shutdown_timeout', SHUTDOWN_TIMEOUT)
    yield
    CONF.set_override('shutdown_timeout', before)


def _host_console_log(server_id):
    """The console log on the compute host, as an operator reads it."""
    with open(os.path.join(CONF.instances_path, server_id,
                           'console.log'), 'rb') as f:
        return f.read().decode('utf-8', 'replace')


class Steps:
    """How long each step took, for the log of a slow run."""

    def __init__(self):
        self.start = self.last = time.monotonic()
        self.times = []

    def done(self, what):
        now = time.monotonic()
        self.times.append('%s %.1fs' % (what, now - self.last))
        self.last = now

    def __str__(self):
        return '; '.join(self.times) + ' (total %.1fs)' % (
            time.monotonic() - self.start)


def test_a_guest_with_an_os_sees_what_tether_does(cloud, guest_images,
                                                  stop_asks_the_guest):
    steps = Steps()
    user = cloud.project()
    # The volume is made of the image in the aio's Glance, as a user
    # makes it (POST /volumes with imageRef).
    image = image_helpers.upload_file(user.conn, guest_images[MARKER])
    root = user.volume(size=1, image_id=image.id)
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    steps.done('boot')

    # It boots from its volume and sees it as its only disk, with the
    # volume's ID as the disk's serial.
    up = console.wait_up(MARKER)
    assert console.boot_disks(up) == {
        'sda': {'bytes': 1 * GiB, 'serial': root['id'], 'bus': 'scsi'}}
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert (bootdisk['name'], bootdisk['part']) == ('sda', 'sda1')
    # The API cuts the output by lines: the UP line is the last one.
    last = user.conn.compute.get_server_console_output(server, length=2)
    assert last['output'].startswith('TETHER-GUEST-UP marker=%s ' % MARKER)
    assert last['output'].endswith('\n') and last['output'].count('\n') == 1
    steps.done('up')

    # Attach: a new disk appears in the guest.
    data = user.volume(size=1)
    mark = console.mark()
    attachment = user.conn.compute.create_volume_attachment(
        server, volume_id=data['id'])
    assert attachment.device == '/dev/sdb'
    changed, disks = console.wait_disks_changed(mark, field='added')
    assert guest_console.names(changed['added']) == ['sdb'], changed
    assert disks['sdb'] == {'bytes': 1 * GiB, 'serial': data['id'],
                            'bus': 'scsi'}
    assert set(disks) == {'sda', 'sdb'}
    steps.done('attach')

    # Online extend: the volume service has the hypervisor grow it, and
    # the running guest sees the new size.
    mark = console.mark()
    resp = user.volumes(EXTEND_VERSION).post(
        '/volumes/%s/action' % data['id'],
        json={'os-extend': {'new_size': 2}})
    assert resp.status_code == 202, resp.text
    changed, disks = console.wait_disks_changed(mark, field='resized')
    assert guest_console.names(changed['resized']) == ['sdb'], changed
    assert disks['sdb']['bytes'] == 2 * GiB
    assert disks['sda']['bytes'] == 1 * GiB
    assert user.wait_volume(data['id'], 'in-use')['size'] == 2
    steps.done('extend')

    # Detach: the disk is gone from the guest.
    mark = console.mark()
    user.conn.compute.delete_volume_attachment(data['id'], server)
    changed, disks = console.wait_disks_changed(mark, field='removed')
    assert guest_console.names(changed['removed']) == ['sdb'], changed
    assert set(disks) == {'sda'}
    user.wait_volume(data['id'], 'available')
    steps.done('detach')

    # Stop: the guest's OS answers the ACPI power button and powers off
    # (it says so, and then only its kernel speaks), rather than being
    # destroyed after the timeout.
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    assert sh.domain_state(server.id) == 'shut off'
    log = _host_console_log(server.id).splitlines()
    said = [i for i, line in enumerate(log)
            if line.startswith('TETHER-GUEST-POWEROFF ')]
    assert said, log[-5:]
    assert all(line.startswith('[') for line in log[said[-1] + 1:]), log
    # A server that is not running gives the console output of its last
    # run, to its power-off.
    resp = user.action(server.id, {'os-getConsoleOutput': {}})
    assert resp.status_code == 200, resp.text
    assert 'TETHER-GUEST-POWEROFF ' in resp.json()['output']
    steps.done('stop')

    # Start: it boots again, in a new log, with its one disk.
    user.conn.compute.start_server(server)
    user.wait_server(server.id)
    up = console.wait_up(MARKER)
    before_up = up['lines'][:up['index']]
    assert not [line for line in before_up if 'POWEROFF' in line]
    assert set(console.boot_disks(up)) == {'sda'}
    steps.done('start')
    print('real guest: %s; %d console reads' % (steps, console.reads))
