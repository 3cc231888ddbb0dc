"""The tiny guest's console as a user reads it: os-getConsoleOutput.

The guest (tools/guest/, see tools/guest/README.rst) prints lines of the
form ``TETHER-GUEST-<WORD> key=value ...`` on its serial console; the
compute host logs them and the compute API serves the log. A test waits
for a line with :meth:`GuestConsole.wait_for` and reads the disk reports
with :meth:`GuestConsole.disks`::

    console = GuestConsole(conn, server)
    up = console.wait_up('tether-tiny-a')     # {'marker': ..., ...}
    mark = console.mark()
    ... attach a volume ...
    changed, disks = console.wait_disks_changed(mark)

Line numbers (``after``, ``mark()``) count the complete lines of the
output, from the start of the log: the guest prints a few kilobytes, far
from the 100 KiB the API serves at most (checked). A start of the guest
begins a new log: wait from line 0 again.

The tests of the virt driver, which have no API, read the same console
with :class:`DriverConsole` (the driver's ``get_console_output``).
"""

import os
import re
import select
import subprocess
import termios
import threading
import time
import tty
import uuid
from xml.etree import ElementTree as ET

PREFIX = 'TETHER-GUEST-'
# How long a wait may take, at most: a TCG guest boots in 3-6 s on an
# idle machine and took up to 21 s under heavy load (tools/guest/
# README.rst); the 2-core test machines are shared.
TIMEOUT = 180
INTERVAL = 0.25
# Where line numbers would stop meaning anything: the API serves the last
# 100 KiB of the log.
MAX_TEXT = 90 * 1024

_FIELD = re.compile(r'(\S+?)=(\S*)')


class Timeout(AssertionError):
    pass


def parse(line):
    """``(word, {key: value})`` of a TETHER-GUEST line, else None.

    ``TETHER-GUEST-OUT`` lines carry a command's free text after their
    ``id=``, which is not split here.
    """
    if not line.startswith(PREFIX):
        return None
    word, _, rest = line[len(PREFIX):].partition(' ')
    return word, dict(_FIELD.findall(rest))


def disk_report(lines):
    """{name: {'bytes': int, 'serial': str, 'bus': str}} of the DISK
    lines of ``lines``."""
    found = {}
    for line in lines:
        parsed = parse(line)
        if parsed and parsed[0] == 'DISK':
            fields = parsed[1]
            found[fields['name']] = {'bytes': int(fields['bytes']),
                                     'serial': fields.get('serial', ''),
                                     'bus': fields.get('bus', '')}
    return found


def by_serial(disks):
    """{serial: name} of a disk report. The kernel names the disks it
    finds at boot in the order their probes end, which is not fixed
    (sd probes asynchronously): a test that boots with several disks
    finds each by its serial (a volume's ID; '' for a local disk)."""
    found = {d['serial']: name for name, d in disks.items()}
    assert len(found) == len(disks), disks
    return found


def names(value):
    """The names of a comma-separated field (``added=sdb,sdc``)."""
    return [n for n in value.split(',') if n]


class GuestConsole:
    """The console of ``server``, read with the openstacksdk connection
    ``conn`` (``compute.get_server_console_output``)."""

    def __init__(self, conn, server, timeout=TIMEOUT, interval=INTERVAL):
        self.conn = conn
        self.server = server
        self.timeout = timeout
        self.interval = interval
        self.reads = 0

    def lines(self):
        """The complete lines of the console output, now."""
        self.reads += 1
        output = self.conn.compute.get_server_console_output(
            self.server)['output']
        assert len(output) < MAX_TEXT, (
            'the console of %s nears the 100 KiB the API serves: line '
            'numbers would shift' % self.server.id)
        return output.split('\n')[:-1]

    def name(self):
        """What the messages call the guest."""
        return 'server %s' % self.server.id

    def pty_path(self):
        """The pty of the guest's serial console."""
        return _pty_path(self.server.id)

    def mark(self):
        """Where the next line will be: pass it as ``after``."""
        return len(self.lines())

    def wait_for(self, pattern, after=0, timeout=None):
        """``(index, match, lines)`` of the first line from ``after`` on
        that matches ``pattern`` (a regular expression, searched)."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            lines = self.lines()
            for index in range(after, len(lines)):
                match = rx.search(lines[index])
                if match:
                    return index, match, lines
            if time.monotonic() > deadline:
                raise Timeout(
                    'no line matching %r from line %d of the console of '
                    '%s within %ss; its last lines:\n%s'
                    % (pattern, after, self.name(),
                       timeout or self.timeout, '\n'.join(lines[-15:])))
            time.sleep(self.interval)

    def wait_word(self, word, after=0, timeout=None):
        """``(index, fields, lines)`` of the first ``TETHER-GUEST-<word>``
        line from ``after`` on."""
        index, match, lines = self.wait_for(
            r'^%s%s( |$)' % (PREFIX, re.escape(word)), after, timeout)
        return index, parse(lines[index])[1], lines

    def wait_up(self, marker=None, after=0):
        """The fields of ``TETHER-GUEST-UP`` (of image ``marker``): the
        guest booted, reported its disks and takes commands."""
        index, fields, lines = self.wait_word('UP', after)
        if marker is not None:
            assert fields['marker'] == marker, lines[index]
        return dict(fields, index=index, lines=lines)

    def boot_disks(self, up):
        """The disks the guest reported at boot (before ``up``)."""
        return disk_report(up['lines'][:up['index']])

    def wait_disks_changed(self, after, timeout=None, field=None):
        """Wait for ``DISKS-CHANGED`` from ``after`` on and the report
        that follows it: ``(its fields, {name: disk})``. With ``field``
        (``'added'``, ``'removed'``, ``'resized'``), the first such line
        that names a disk in that field: a guest that has just booted
        may first report a disk whose size its late probe settled."""
        while True:
            index, changed, _ = self.wait_word('DISKS-CHANGED', after,
                                               timeout)
            if field is None or changed.get(field):
                break
            after = index + 1
        end, _, lines = self.wait_word('DISKS', index + 1, timeout)
        return changed, disk_report(lines[index + 1:end])

    def command(self, command, timeout=None):
        """Run ``command`` in the guest (after UP): ``(rc, output
        lines)``. The host writes ``TETHER-CMD`` to the console's pty, as
        an operator types into ``virsh console``; the answer is read
        through the API like every other line."""
        self._seq = getattr(self, '_seq', 0) + 1
        cid = 'c%d-%s' % (self._seq, uuid.uuid4().hex[:6])
        after = self.mark()
        with _Pty(self.pty_path()) as pty:
            pty.write(('TETHER-CMD %s %s\n' % (cid, command)).encode())
            index, match, lines = self.wait_for(
                r'^%sCMD-DONE id=%s rc=(\d+)' % (PREFIX, re.escape(cid)),
                after, timeout)
        prefix = '%sOUT id=%s' % (PREFIX, cid)
        out = [line[len(prefix):].lstrip(' ') for line in lines[after:index]
               if line.startswith(prefix)]
        return int(match.group(1)), out


def _pty_path(server_id):
    """The pty of the guest's serial console (its live domain XML)."""
    xml = subprocess.run(
        ['virsh', '-c', 'qemu:///system', 'dumpxml',
         'instance-' + server_id], check=True, capture_output=True,
        text=True, timeout=60).stdout
    source = ET.fromstring(xml).find("./devices/serial[@type='pty']/source")
    assert source is not None, 'the guest of %s has no pty console' % (
        server_id)
    return source.get('path')


class _Pty:
    """The console's pty, raw (no echo of the guest's output back to it)
    and drained while open (a pty nobody reads stalls the guest's
    console, its log included)."""

    def __init__(self, path):
        self.path = path
        self.fd = None
        self._stop = threading.Event()
        self._thread = None

    def __enter__(self):
        self.fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd, termios.TCSANOW)
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()
        # QEMU notices a newly opened pty within a second, and then reads
        # what was written: the first command just takes that longer.
        return self

    def _drain(self):
        while not self._stop.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    os.read(self.fd, 4096)
                except OSError:       # EIO: the guest is gone
                    time.sleep(0.1)

    def write(self, data):
        os.write(self.fd, data)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(5)
        os.close(self.fd)


class DriverConsole(GuestConsole):
    """The console of the guest ``instance_uuid`` of a virt ``driver``,
    read with ``driver.get_console_output`` (the tests of the driver, which
    have no API): the same waits and commands as :class:`GuestConsole`."""

    def __init__(self, driver, instance_uuid, timeout=TIMEOUT,
                 interval=INTERVAL):
        self.driver = driver
        self.instance_uuid = instance_uuid
        self.timeout = timeout
        self.interval = interval
        self.reads = 0

    def name(self):
        return 'guest %s' % self.instance_uuid

    def lines(self):
        self.reads += 1
        output = self.driver.get_console_output(self.instance_uuid).decode(
            'utf-8', 'replace')
        assert len(output) < MAX_TEXT, (
            'the console of %s nears the 100 KiB the driver serves'
            % self.instance_uuid)
        return [line.rstrip('\r') for line in output.split('\n')[:-1]]

    def pty_path(self):
        xml = self.driver.host.lookup(self.instance_uuid).xml()
        source = ET.fromstring(xml).find(
            "./devices/serial[@type='pty']/source")
        assert source is not None, '%s has no pty console' % self.name()
        return source.get('path')
