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

The domain's XML and the host side of the console protocol
(tools/guest/README.rst), :class:`Guest`, are in guest_domain.py.
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
import time
import xml.etree.ElementTree as ET

import libvirt

from guest_domain import PREFIX, Guest, destroy, disk_xml, domain_xml

URI = 'qemu:///system'
FWCFG_RUN = 'opt/org.tether/run'
MiB = 1024 * 1024


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
