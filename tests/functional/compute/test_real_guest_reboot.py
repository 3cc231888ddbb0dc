"""Soft and hard reboots seen from inside a guest with an OS (the tiny
test guest, tools/guest/): a soft reboot presses the guest's ACPI power
button, and the guest powers itself off (``TETHER-GUEST-POWEROFF`` on its
console) before it boots again; a hard reboot powers it off at once (no
such line); a guest that ignores the button is powered off when
``[libvirt] wait_soft_reboot_seconds`` is up, and boots all the same.

The console log starts again with each QEMU process, so what the old
guest wrote last is read live from the console's pty."""

import os
import select
import threading
import time

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import image_helpers

CONF = cfg.CONF
MARKER = 'tether-tiny-a'
# m1.micro, 128 MiB: the tiny guest's kernel does not come up in 64.
FLAVOR = '2'
# A generous wait for a guest that answers the power button at once: the
# shared test machines are slow.
SOFT_TIMEOUT = 120


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def soft_reboots_ask_the_guest():
    before = CONF.libvirt.wait_soft_reboot_seconds
    CONF.set_override('wait_soft_reboot_seconds', SOFT_TIMEOUT,
                      group='libvirt')
    yield
    CONF.set_override('wait_soft_reboot_seconds', before, group='libvirt')


class Recorder:
    """Everything the guest writes to its console's pty until its QEMU
    ends (the pty is gone)."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        self.data = b''
        self.ended = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            while True:
                ready, _, _ = select.select([self.fd], [], [], 0.2)
                if not ready:
                    continue
                try:
                    chunk = os.read(self.fd, 4096)
                except BlockingIOError:
                    continue
                except OSError:      # EIO: the QEMU process is gone
                    break
                if not chunk:
                    break
                self.data += chunk
        finally:
            os.close(self.fd)
            self.ended.set()

    def lines(self, timeout=SOFT_TIMEOUT):
        assert self.ended.wait(timeout), 'the guest\'s QEMU did not end'
        return self.data.decode('utf-8', 'replace').splitlines()


def _boot_id(console):
    rc, out = console.command('cat /proc/sys/kernel/random/boot_id')
    assert rc == 0, out
    return out[0]


def _events(user, server, request_id):
    return [(e['event'], e['result']) for e in user.compute('2.51').get(
        '/servers/%s/os-instance-actions/%s' % (server.id, request_id)
    ).json()['instanceAction']['events']]


def _reboot(user, server, console, kind):
    """Reboot (``kind``: SOFT or HARD) and wait until the guest is up
    again: (the answer, the power-off lines the old guest wrote last)."""
    recorder = Recorder(console.pty_path())
    resp = user.action(server.id, {'reboot': {'type': kind}})
    assert resp.status_code == 202, resp.text
    poweroff = [line for line in recorder.lines()
                if line.startswith('TETHER-GUEST-POWEROFF ')]
    user.wait_server(server.id)
    console.wait_up(MARKER)
    return resp, poweroff


def test_a_soft_reboot_asks_the_guest_and_a_hard_one_does_not(
        cloud, guest_images, soft_reboots_ask_the_guest):
    user = cloud.project()
    image = image_helpers.upload_file(user.conn, guest_images[MARKER])
    server = user.boot(user.volume(size=1, image_id=image.id),
                       flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(MARKER)
    first = _boot_id(console)
    seen = []

    # Soft: the guest's OS hears the power button and powers itself off
    # (its last line), then it boots again.
    began = time.monotonic()
    resp, poweroff = _reboot(user, server, console, 'SOFT')
    assert poweroff, 'no TETHER-GUEST-POWEROFF line'
    second = _boot_id(console)
    assert second != first
    seen.append('soft: the guest printed %r and booted again in %.1f s'
                % (poweroff[0], time.monotonic() - began))
    assert _events(user, server, resp.headers['x-openstack-request-id']) \
        == [('compute_reboot_instance', 'Success')]

    # Hard: powered off at once, the guest never hears of it.
    _, poweroff = _reboot(user, server, console, 'HARD')
    assert not poweroff, poweroff
    assert _boot_id(console) not in (first, second)
    seen.append('hard: no power-off line, booted again')

    # A guest that ignores the button (its watcher killed) is powered
    # off when the wait is up, and boots all the same.
    # (the watcher is a dd reading the button's input device: a press
    # ends it and powers the guest off; killed, nothing does)
    rc, out = console.command('killall dd')
    assert rc == 0, out
    CONF.set_override('wait_soft_reboot_seconds', 3, group='libvirt')
    began = time.monotonic()
    _, poweroff = _reboot(user, server, console, 'SOFT')
    assert not poweroff, poweroff
    took = time.monotonic() - began
    assert took >= 3, took
    seen.append('soft, button ignored: powered off after the 3 s wait, '
                'booted again (%.1f s in all)' % took)
    print('; '.join(seen))
