#!/usr/bin/env python3
"""Boot tether's tiny test guest under libvirt and time it: a proof.

    tools/guest/try_boot.py IMAGE [--runs N] [--checks] [--share DIR:TAG]
                                  [--rebuild-with IMAGE2] [--machine q35|pc]

IMAGE is made by tools/guest/build-image.sh (raw or qcow2). It is copied
into a work directory and booted from that copy, as a virtio-scsi disk
(``sda``) of a transient domain (qemu:///system, TCG, 1 vCPU, 128 MiB)
whose serial console is a pty logged to a file. The domain is named
``scratch-guest-*`` and is destroyed when the script ends, however it ends.

--runs N     boot N times (start, wait for TETHER-GUEST-UP, destroy) and
             print the times.
--checks     one boot, then: a command round trip, a live resize of a data
             disk, a hot attach and detach of a disk, the virtio-fs share(s)
             of --share, a stamp written onto the boot disk, ACPI shutdown,
             a second boot (the stamp is still there) and, with
             --rebuild-with, a third boot after the disk was overwritten with
             IMAGE2 (qemu-img convert -n): IMAGE2's marker, no stamp.

The :class:`Guest` class is the host side of the console protocol
(tools/guest/README.rst): it follows the console log, waits for lines and
sends commands over the console's pty.
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tty
import xml.etree.ElementTree as ET

import libvirt

URI = 'qemu:///system'
PREFIX = 'scratch-guest-'
VIRTIOFSD = '/usr/lib/qemu/virtiofsd'
FWCFG_SHARES = 'opt/org.tether/shares'
FWCFG_RUN = 'opt/org.tether/run'
MiB = 1024 * 1024

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


def image_info(path):
    out = subprocess.run(['qemu-img', 'info', '--output=json', '-U', path],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def image_format(path):
    return image_info(path)['format']


def virtual_size(path):
    return image_info(path)['virtual-size']


def stats(values):
    return 'min %.2f  median %.2f  max %.2f  (n=%d)' % (
        min(values), statistics.median(values), max(values), len(values))


class Run:
    """A work directory and the state of one try_boot invocation."""

    def __init__(self, args):
        self.args = args
        self.conn = libvirt.open(URI)
        self.name = args.name or '%s%d' % (PREFIX, os.getpid())
        base = args.workdir or tempfile.gettempdir()
        os.makedirs(base, exist_ok=True)
        self.dir = tempfile.mkdtemp(prefix=self.name + '.', dir=base)
        os.chmod(self.dir, 0o755)            # QEMU runs as libvirt-qemu
        self.fmt = image_format(args.image)
        self.boot = os.path.join(self.dir, 'boot.' + self.fmt)
        shutil.copyfile(args.image, self.boot)
        if args.volume_size:             # a boot volume bigger than IMAGE
            subprocess.run(['qemu-img', 'resize', '-q', '-f', self.fmt,
                            self.boot, args.volume_size], check=True)
        self.shares = []
        for spec in args.share:
            source, _, tag = spec.rpartition(':')
            self.shares.append((os.path.abspath(source), tag))
        self.fwcfg = {}
        if args.fwcfg_run:
            self.fwcfg[FWCFG_RUN] = args.fwcfg_run
        self.direct = None
        if args.boot_files:
            d = os.path.abspath(args.boot_files)
            with open(os.path.join(d, 'cmdline')) as f:
                cmdline = f.read().strip()
            self.direct = (os.path.join(d, 'vmlinuz'),
                           os.path.join(d, 'initramfs.gz'),
                           ' '.join(filter(None, [cmdline, args.append])))
        self.boots = 0
        self.guest = None

    def log(self, msg):
        print(msg, flush=True)

    def start(self, extra_disks=()):
        self.boots += 1
        log = os.path.join(self.dir, 'console-%d.log' % self.boots)
        disks = [disk_xml(self.boot, self.fmt, 'sda', 'boot-disk', 0)]
        disks.extend(extra_disks)
        xml = domain_xml(self.name, disks, log, machine=self.args.machine,
                         memory_mib=self.args.memory, shares=self.shares,
                         fwcfg_shares=not self.args.no_fwcfg,
                         fwcfg=self.fwcfg,
                         direct=self.direct)
        self.guest = Guest(self.conn, self.name, xml, log)
        return self.guest

    def boot_once(self, extra_disks=()):
        g = self.start(extra_disks)
        i, m, wall = g.wait_up(self.args.timeout)
        self.log('boot %d: defined+started in %.2fs, TETHER-GUEST-UP after '
                 '%.2fs (guest uptime %ss), marker=%s, console %s' % (
                     self.boots, g.t_created - g.t_start, wall,
                     m.group('uptime'), m.group('marker'), g.console.path))
        return g, i, m, wall

    def stop(self):
        if self.guest is not None:
            self.guest.close()
            self.guest = None

    def close(self, ok):
        self.stop()
        destroy(self.conn, self.name)
        self.conn.close()
        if ok and not self.args.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        else:
            self.log('work directory kept: %s' % self.dir)


def runs(run, n, commands=()):
    walls, uptimes = [], []
    for _ in range(n):
        g, i, m, wall = run.boot_once()
        walls.append(wall)
        uptimes.append(float(m.group('uptime')))
        for command in commands:
            rc, out, took = g.command(command)
            run.log('$ %s  (rc=%d, %.2fs)' % (command, rc, took))
            for line in out:
                run.log('  ' + line)
        run.stop()
    run.log('start -> TETHER-GUEST-UP (s): ' + stats(walls))
    run.log('guest uptime at UP (s):       ' + stats(uptimes))


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print('  ok: ' + what, flush=True)


def checks(run):
    a = run.args
    data = os.path.join(run.dir, 'data.raw')
    subprocess.run(['qemu-img', 'create', '-q', '-f', 'raw', data, '64M'],
                   check=True)
    hot = os.path.join(run.dir, 'hot.qcow2')
    subprocess.run(['qemu-img', 'create', '-q', '-f', 'qcow2', hot, '32M'],
                   check=True)
    g, up_i, up, wall = run.boot_once(
        [disk_xml(data, 'raw', 'sdb', 'data-disk', 1)])
    disks = g.disks(0, up_i)
    check(disks.get('sda') == (virtual_size(run.boot), 'boot-disk'),
          'boot disk sda listed: %s' % (disks.get('sda'),))
    check(disks.get('sdb') == (64 * MiB, 'data-disk'),
          'data disk sdb listed: %s' % (disks.get('sdb'),))
    _, bd = g.wait_for(r'^TETHER-GUEST-BOOTDISK name=sda part=sda1 '
                       r'stamps=(\S*)', 5)
    check(bd.group(1) == '', 'boot disk found, no stamp: ' + bd.group(0))

    rc, out, took = g.command('uname -r; tether-guest marker')
    check(rc == 0 and len(out) == 2, 'command round trip %.2fs: %s'
          % (took, out))
    rtts = [g.command('true')[2] for _ in range(5)]
    run.log('  command round trip (s): ' + stats(rtts))

    mark = g.console.mark()
    t0 = time.monotonic()
    g.dom.blockResize('sdb', 128 * MiB, libvirt.VIR_DOMAIN_BLOCK_RESIZE_BYTES)
    t_api = time.monotonic() - t0
    changes, disks, took = g.wait_disks_changed(mark)
    check('resized=sdb' in changes and disks['sdb'][0] == 128 * MiB,
          'blockresize sdb 64->128 MiB seen in %.2fs (API %.2fs): %s'
          % (took + t_api, t_api, changes))

    hot_xml = ET.tostring(disk_xml(hot, 'qcow2', 'sdc', 'hot-disk', 2),
                          encoding='unicode')
    mark = g.console.mark()
    t0 = time.monotonic()
    g.dom.attachDeviceFlags(hot_xml, libvirt.VIR_DOMAIN_AFFECT_LIVE)
    changes, disks, took = g.wait_disks_changed(mark)
    check('added=sdc' in changes
          and disks.get('sdc') == (32 * MiB, 'hot-disk'),
          'hot attach of sdc seen %.2fs after the call: %s'
          % (time.monotonic() - t0, changes))
    mark = g.console.mark()
    t0 = time.monotonic()
    g.dom.detachDeviceFlags(hot_xml, libvirt.VIR_DOMAIN_AFFECT_LIVE)
    t_api = time.monotonic() - t0
    changes, disks, took = g.wait_disks_changed(mark)
    check('removed=sdc' in changes and 'sdc' not in disks,
          'detach of sdc seen %.2fs after the call (API %.2fs): %s'
          % (time.monotonic() - t0, t_api, changes))

    for source, tag in run.shares:
        if a.no_fwcfg:
            rc, out, _ = g.command('tether-guest share %s' % tag)
        _, m = g.wait_for(r'^TETHER-GUEST-SHARE tag=%s mounted=(\S+)'
                          % re.escape(tag), 30)
        mnt = m.group(1)
        token = 'from-host %s' % time.time()
        with open(os.path.join(source, 'from-host.txt'), 'w') as f:
            f.write(token + '\n')
        rc, out, took = g.command('cat %s/from-host.txt' % mnt)
        check(rc == 0 and out == [token], 'share %s: guest reads the '
              'host file (%.2fs)' % (tag, took))
        rc, out, took = g.command('echo from-guest > %s/from-guest.txt'
                                  % mnt)
        with open(os.path.join(source, 'from-guest.txt')) as f:
            got = f.read()
        check(rc == 0 and got == 'from-guest\n',
              'share %s: the host reads the guest file' % tag)

    rc, out, took = g.command('tether-guest stamp-write s1')
    check(rc == 0, 'stamp s1 written (%.2fs): %s' % (took, out))
    rc, out, _ = g.command('tether-guest stamps')
    check(out == ['s1'], 'stamp listed: %s' % out)

    took = g.shutdown()
    check(True, 'ACPI shutdown: domain gone %.2fs after virsh shutdown'
          % took)
    g.wait_for(r'^TETHER-GUEST-POWEROFF', 1)
    run.stop()

    g, up_i, up, wall = run.boot_once()
    _, bd = g.wait_for(r'^TETHER-GUEST-BOOTDISK .*stamps=(\S*)', 5)
    check(bd.group(1) == 's1', 'second boot: stamp still there: '
          + bd.group(0))
    marker1 = up.group('marker')
    run.stop()

    if a.rebuild_with:
        fmt2 = image_format(a.rebuild_with)
        t0 = time.monotonic()
        subprocess.run(['qemu-img', 'convert', '-n', '-f', fmt2, '-O',
                        run.fmt, a.rebuild_with, run.boot], check=True)
        run.log('  rebuilt the boot disk from %s in %.2fs'
                % (a.rebuild_with, time.monotonic() - t0))
        g, up_i, up, wall = run.boot_once()
        _, bd = g.wait_for(r'^TETHER-GUEST-BOOTDISK .*stamps=(\S*)', 5)
        check(bd.group(1) == '', 'after rebuild: stamp gone: '
              + bd.group(0))
        check(up.group('marker') != marker1, 'after rebuild: marker %s, '
              'was %s' % (up.group('marker'), marker1))
        if a.expect_marker2:
            check(up.group('marker') == a.expect_marker2,
                  'marker is %s' % a.expect_marker2)
        took = g.shutdown()
        check(True, 'ACPI shutdown %.2fs' % took)
        run.stop()


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('image')
    p.add_argument('--runs', type=int, default=1)
    p.add_argument('--checks', action='store_true')
    p.add_argument('--command', action='append', default=[],
                   help='run this in the guest after each boot (printed)')
    p.add_argument('--share', action='append', default=[],
                   metavar='DIR:TAG', help='a virtio-fs share')
    p.add_argument('--no-fwcfg', action='store_true',
                   help='do not name the share tags by fw_cfg: send them '
                   'as a command')
    p.add_argument('--fwcfg-run', metavar='SCRIPT',
                   help='a script the guest runs at boot, before UP '
                   '(fw_cfg %s)' % FWCFG_RUN)
    p.add_argument('--rebuild-with', metavar='IMAGE2')
    p.add_argument('--expect-marker2')
    p.add_argument('--boot-files', metavar='DIR',
                   help="boot DIR's vmlinuz, initramfs.gz and cmdline "
                   '(build-image.sh --boot-files) directly; IMAGE is still '
                   'the disk sda')
    p.add_argument('--append', help='more kernel arguments (--boot-files)')
    p.add_argument('--volume-size', metavar='SIZE',
                   help='grow the copy of IMAGE to SIZE (qemu-img resize), '
                   'as a boot volume made from the image')
    p.add_argument('--machine', default='q35')
    p.add_argument('--memory', type=int, default=128, help='MiB')
    p.add_argument('--timeout', type=float, default=180)
    p.add_argument('--name', help='domain name (%s*)' % PREFIX)
    p.add_argument('--workdir', help='where the work directory is made')
    p.add_argument('--keep', action='store_true',
                   help='keep the work directory (console logs)')
    args = p.parse_args()
    if args.name and not args.name.startswith(PREFIX):
        p.error('--name must start with %s' % PREFIX)

    def terminate(signum, frame):
        raise SystemExit('killed by signal %d' % signum)
    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)

    # libvirt prints every error it raises by default; they are handled.
    libvirt.registerErrorHandler(lambda ctx, err: None, None)
    run = Run(args)
    ok = False
    try:
        if args.checks:
            checks(run)
        else:
            runs(run, args.runs, args.command)
        ok = True
    finally:
        run.close(ok)
    return 0


if __name__ == '__main__':
    sys.exit(main())
