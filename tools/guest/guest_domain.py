"""A scratch domain of tether's tiny test guest under libvirt (try_boot.py):
its XML, and the host side of the console protocol (tools/guest/README.rst):
:class:`Guest` follows the console log, waits for lines and sends commands
over the console's pty.
"""

import os
import re
import termios
import threading
import time
import tty
import xml.etree.ElementTree as ET

import libvirt

PREFIX = 'scratch-guest-'
VIRTIOFSD = '/usr/lib/qemu/virtiofsd'
FWCFG_SHARES = 'opt/org.tether/shares'

UP = r'^TETHER-GUEST-UP marker=(?P<marker>\S+) uptime=(?P<uptime>[\d.]+)'


def _sub(parent, tag, text=None, **attrs):
    el = ET.SubElement(parent, tag, {k: str(v) for k, v in attrs.items()})
    if text is not None:
        el.text = str(text)
    return el


def disk_xml(path, fmt, target, serial, unit):
    """A file disk on the virtio-scsi controller (as tether makes them)."""
    el = ET.Element('disk', type='file', device='disk')
    _sub(el, 'driver', name='qemu', type=fmt)
    _sub(el, 'source', file=path)
    _sub(el, 'target', dev=target, bus='scsi')
    _sub(el, 'serial', serial)
    _sub(el, 'address', type='drive', controller=0, bus=0, target=0,
         unit=unit)
    return el


def domain_xml(name, disks, console_log, machine='q35', memory_mib=128,
               shares=(), fwcfg_shares=True, fwcfg=None, direct=None):
    """A transient test domain. ``disks``: disk_xml elements; ``shares``:
    (host dir, tag) pairs, named to the guest by fw_cfg if ``fwcfg_shares``;
    ``fwcfg``: more fw_cfg entries {name: text}; ``direct``: (kernel,
    initrd, command line) to boot without firmware and boot loader.
    """
    root = ET.Element('domain', type='qemu')
    _sub(root, 'name', name)
    _sub(root, 'memory', memory_mib, unit='MiB')
    if shares:                    # virtiofsd needs shared guest memory
        mb = _sub(root, 'memoryBacking')
        _sub(mb, 'source', type='memfd')
        _sub(mb, 'access', mode='shared')
    _sub(root, 'vcpu', 1)
    entries = dict(fwcfg or {})
    if shares and fwcfg_shares:
        entries[FWCFG_SHARES] = ','.join(tag for _, tag in shares)
    if entries:
        si = _sub(root, 'sysinfo', type='fwcfg')
        for name, text in entries.items():
            _sub(si, 'entry', text, name=name)
    os_el = _sub(root, 'os')
    _sub(os_el, 'type', 'hvm', arch='x86_64', machine=machine)
    if direct:
        for tag, value in zip(('kernel', 'initrd', 'cmdline'), direct):
            _sub(os_el, tag, value)
    else:
        _sub(os_el, 'boot', dev='hd')
    _sub(_sub(root, 'features'), 'acpi')
    cpu = _sub(root, 'cpu', mode='custom', match='exact')
    _sub(cpu, 'model', 'qemu64', fallback='allow')
    _sub(root, 'clock', offset='utc')
    _sub(root, 'on_poweroff', 'destroy')
    _sub(root, 'on_reboot', 'destroy')
    _sub(root, 'on_crash', 'destroy')
    dev = _sub(root, 'devices')
    _sub(dev, 'controller', type='scsi', model='virtio-scsi', index=0)
    _sub(dev, 'controller', type='usb', model='none')
    for d in disks:
        dev.append(d)
    for source, tag in shares:
        fs = _sub(dev, 'filesystem', type='mount', accessmode='passthrough')
        _sub(fs, 'driver', type='virtiofs', queue=1024)
        _sub(fs, 'binary', path=VIRTIOFSD)
        _sub(fs, 'source', dir=source)
        _sub(fs, 'target', dir=tag)
    serial = _sub(dev, 'serial', type='pty')
    _sub(serial, 'log', file=console_log, append='off')
    _sub(serial, 'target', port=0)
    console = _sub(dev, 'console', type='pty')
    _sub(console, 'target', type='serial', port=0)
    _sub(_sub(dev, 'video'), 'model', type='none')
    _sub(dev, 'memballoon', model='none')
    return ET.tostring(root, encoding='unicode')


class Timeout(Exception):
    pass


class ConsoleLog:
    """The lines of a console log file, read as they are written."""

    def __init__(self, path):
        self.path = path
        self.lines = []
        self._pos = 0
        self._partial = b''

    def read(self):
        try:
            with open(self.path, 'rb') as f:
                f.seek(self._pos)
                data = f.read()
        except FileNotFoundError:
            return
        self._pos += len(data)
        *done, self._partial = (self._partial + data).split(b'\n')
        self.lines.extend(x.decode('utf-8', 'replace').rstrip('\r')
                          for x in done)

    def mark(self):
        """Where the next line will be: pass it as ``after`` to wait_for."""
        self.read()
        return len(self.lines)

    def wait_for(self, pattern, timeout=60, after=0, alive=None):
        """The first match of ``pattern`` in a line from ``after`` on.

        ``alive``: a callable, false once waiting is pointless (the domain
        is gone).
        """
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        i = after
        while True:
            self.read()
            while i < len(self.lines):
                m = rx.search(self.lines[i])
                if m:
                    return i, m
                i += 1
            if time.monotonic() > deadline:
                raise Timeout('no %r in %s within %ss' % (
                    pattern, self.path, timeout))
            if alive is not None and not alive():
                raise Timeout('no %r in %s: the domain is gone' % (
                    pattern, self.path))
            time.sleep(0.05)


class Pty:
    """The console's pty, in raw mode, drained by a thread.

    Raw: no echo (the guest's output would come back to it as input) and
    no output processing. Drained: a pty nobody reads fills up and then
    stalls the guest's serial output, the console log included.
    """

    def __init__(self, path):
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd, termios.TCSANOW)
        self._stop = False
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self):
        while not self._stop:
            try:
                if not os.read(self.fd, 4096):
                    time.sleep(0.1)
            except OSError:               # EIO: the guest is gone
                time.sleep(0.1)

    def write(self, data):
        os.write(self.fd, data)

    def close(self):
        self._stop = True
        os.close(self.fd)


class Guest:
    """A running transient domain and its console protocol."""

    def __init__(self, conn, name, xml, log_path):
        if not name.startswith(PREFIX):
            raise ValueError('test domains are named %s*' % PREFIX)
        self.conn = conn
        self.name = name
        self.console = ConsoleLog(log_path)
        self._pty = None
        self._seq = 0
        destroy(conn, name)              # a leftover of an interrupted run
        self.t_start = time.monotonic()
        self.dom = conn.createXML(xml, 0)
        self.t_created = time.monotonic()

    def alive(self):
        try:
            return self.conn.lookupByName(self.name).isActive()
        except libvirt.libvirtError:
            return False

    def wait_for(self, pattern, timeout=60, after=0):
        return self.console.wait_for(pattern, timeout, after, self.alive)

    def wait_up(self, timeout=180):
        i, m = self.wait_for(UP, timeout)
        return i, m, time.monotonic() - self.t_start

    def pty_path(self):
        root = ET.fromstring(self.dom.XMLDesc(0))
        return root.find("./devices/serial[@type='pty']/source").get('path')

    def command(self, command, timeout=60):
        """Run ``command`` in the guest: (rc, output lines, seconds)."""
        if self._pty is None:
            self._pty = Pty(self.pty_path())
        self._seq += 1
        cid = 'c%d' % self._seq
        mark = self.console.mark()
        t0 = time.monotonic()
        self._pty.write(('TETHER-CMD %s %s\n' % (cid, command)).encode())
        i, m = self.wait_for(r'^TETHER-GUEST-CMD-DONE id=%s rc=(\d+)' % cid,
                             timeout, mark)
        took = time.monotonic() - t0
        prefix = 'TETHER-GUEST-OUT id=%s ' % cid
        out = [x[len(prefix):] for x in self.console.lines[mark:i]
               if x.startswith(prefix) or x == prefix.rstrip()]
        return int(m.group(1)), out, took

    def disks(self, after=0, until=None):
        """{name: (bytes, serial)} from the DISK lines between ``after``
        and ``until`` (a line index; default: all read so far)."""
        rx = re.compile(r'^TETHER-GUEST-DISK name=(\S+) bytes=(\d+) '
                        r'serial=(\S*)')
        found = {}
        for line in self.console.lines[after:until]:
            m = rx.search(line)
            if m:
                found[m.group(1)] = (int(m.group(2)), m.group(3))
        return found

    def wait_disks_changed(self, after, timeout=30):
        """Wait for DISKS-CHANGED and its report: (changes, disks, s)."""
        t0 = time.monotonic()
        i, m = self.wait_for(r'^TETHER-GUEST-DISKS-CHANGED (.*)', timeout,
                             after)
        took = time.monotonic() - t0
        j, _ = self.wait_for(r'^TETHER-GUEST-DISKS count=', timeout, i)
        return m.group(1), self.disks(i, j + 1), took

    def shutdown(self, timeout=60):
        """ACPI power button; seconds until the domain is gone."""
        t0 = time.monotonic()
        self.dom.shutdown()
        deadline = t0 + timeout
        while self.alive():
            if time.monotonic() > deadline:
                raise Timeout('%s still runs %ss after shutdown'
                              % (self.name, timeout))
            time.sleep(0.05)
        return time.monotonic() - t0

    def close(self):
        if self._pty is not None:
            self._pty.close()
            self._pty = None
        destroy(self.conn, self.name)


def destroy(conn, name):
    """Destroy (and undefine) the test domain ``name`` if it exists."""
    if not name.startswith(PREFIX):
        raise ValueError('refusing to touch %s' % name)
    try:
        dom = conn.lookupByName(name)
    except libvirt.libvirtError:
        return
    try:
        if dom.isActive():
            dom.destroy()
        if dom.isPersistent():
            dom.undefine()
    except libvirt.libvirtError as e:
        if e.get_error_code() != libvirt.VIR_ERR_NO_DOMAIN:
            raise
