"""Pause and suspend seen from inside a guest with an OS (the tiny test
guest, tools/guest/): a paused guest's console stops and carries on where
it stopped after unpause; a suspended guest's QEMU is gone, and after
resume the same guest carries on with what it had in memory (no boot, the
same boot_id, a file in its RAM file system, its ticker's count); a hard
reboot of a suspended guest boots it (a new boot_id, the file gone)."""

import os
import re
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
# The guest's ticker: one line every TICK seconds on its console, from a
# loop in its memory.
TICK = 0.5
TICKER = ('(i=0; while :; do i=$((i+1)); echo TETHER-GUEST-TICK n=$i '
          '>/dev/ttyS0; sleep %s; done) </dev/null >/dev/null 2>&1 &'
          % TICK)
_TICK = re.compile(r'^TETHER-GUEST-TICK n=(\d+)\r?$')


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _host_console_log(server_id):
    """The console log on the compute host, as an operator reads it (the
    API serves the console of an active server only)."""
    with open(os.path.join(CONF.instances_path, server_id,
                           'console.log'), 'rb') as f:
        return f.read().decode('utf-8', 'replace').splitlines()


def _ticks(lines):
    return [int(m.group(1)) for m in map(_TICK.match, lines) if m]


def _in_guest(console, command):
    rc, out = console.command(command)
    assert rc == 0, (command, out)
    return out


def test_a_paused_guest_stops_and_a_suspended_one_keeps_its_memory(
        cloud, guest_images):
    user = cloud.project()
    image = image_helpers.upload_file(user.conn, guest_images[MARKER])
    root = user.volume(size=1, image_id=image.id)
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(MARKER)
    (boot_id,) = _in_guest(console, 'cat /proc/sys/kernel/random/boot_id')
    _in_guest(console, 'echo kept-in-ram > /tmp/secret')
    _in_guest(console, TICKER)
    console.wait_for(r'^TETHER-GUEST-TICK n=3')

    # Pause: the guest's vCPUs stop, so does its console.
    user.conn.compute.pause_server(server)
    user.wait_server(server.id, 'PAUSED')
    assert sh.domain_state(server.id) == 'paused'
    paused_at = _host_console_log(server.id)
    time.sleep(8 * TICK)
    assert _host_console_log(server.id) == paused_at
    last = max(_ticks(paused_at))
    seen = ['paused at tick %d, still %d after %.1f s' % (
        last, max(_ticks(_host_console_log(server.id))), 8 * TICK)]

    # Unpause: the same loop carries on from the next number.
    user.conn.compute.unpause_server(server)
    user.wait_server(server.id, 'ACTIVE')
    index, _, lines = console.wait_for(r'^TETHER-GUEST-TICK n=%d\r?$'
                                       % (last + 1))
    assert _ticks(lines[:index]) == list(range(1, last + 1))
    seen.append('unpaused: tick %d next' % (last + 1))
    console.wait_for(r'^TETHER-GUEST-TICK n=%d\r?$' % (last + 4))

    # Suspend: the guest's memory is saved on the host and its QEMU ends;
    # nothing more is written.
    user.conn.compute.suspend_server(server)
    user.wait_server(server.id, 'SUSPENDED')
    assert sh.domain_state(server.id) == 'shut off'
    suspended_at = _host_console_log(server.id)
    last = max(_ticks(suspended_at))
    time.sleep(4 * TICK)
    assert max(_ticks(_host_console_log(server.id))) == last
    seen.append('suspended at tick %d' % last)

    # Resume: the guest carries on from its saved memory, not from a
    # boot: the ticker goes on from its next number, the file written in
    # its RAM is there, the kernel's boot_id is the same, and it printed
    # no boot line.
    user.conn.compute.resume_server(server)
    user.wait_server(server.id, 'ACTIVE')
    assert sh.domain_state(server.id) == 'running'
    index, _, lines = console.wait_for(r'^TETHER-GUEST-TICK n=%d\r?$'
                                       % (last + 1))
    assert _in_guest(console, 'cat /tmp/secret') == ['kept-in-ram']
    assert _in_guest(console,
                     'cat /proc/sys/kernel/random/boot_id') == [boot_id]
    # (libvirt starts the log again with each QEMU process: the restored
    # one's log has only what the guest wrote since.)
    log = _host_console_log(server.id)
    after = (log[len(suspended_at):] if log[:len(suspended_at)] ==
             suspended_at else log)
    assert _ticks(after)[0] == last + 1, after[:5]
    assert not [line for line in after
                if line.startswith('TETHER-GUEST-BOOT ')], after
    seen.append('resumed: tick %d next, /tmp/secret kept, boot_id %s '
                'kept, no boot line' % (last + 1, boot_id))
    assert [a['action'] for a in user.compute('2.1').get(
        '/servers/%s/os-instance-actions' % server.id).json()[
            'instanceActions']] == ['resume', 'suspend', 'unpause',
                                    'pause', 'create']

    # A hard reboot of a suspended server drops its saved memory: the
    # guest boots (a new boot_id, its RAM file system new).
    user.conn.compute.suspend_server(server)
    user.wait_server(server.id, 'SUSPENDED')
    user.conn.compute.reboot_server(server, 'HARD')
    user.wait_server(server.id, 'ACTIVE')
    # The new QEMU's log: the guest's boot, and no tick before it.
    up = console.wait_up(MARKER)
    assert not _ticks(up['lines'][:up['index']]), up['lines'][:5]
    (new_boot_id,) = _in_guest(console,
                               'cat /proc/sys/kernel/random/boot_id')
    assert new_boot_id != boot_id
    rc, out = console.command('cat /tmp/secret')
    assert rc != 0, out
    seen.append('hard reboot of the suspended guest: booted, boot_id %s'
                % new_boot_id)
    print('real guest pause/suspend: %s' % '; '.join(seen))
