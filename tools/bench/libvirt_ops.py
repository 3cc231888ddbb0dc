#!/usr/bin/env python3
"""Time the libvirt operations a compute flow is made of (a baseline).

For each of define+start, attach-device, detach-device, blockResize and
destroy it prints the median (p50) and the slowest of N rounds (default
10), twice: calling libvirt-python directly ("bare"), and through tether's
libvirt driver (spawn, attach_volume, detach_volume, extend_volume,
destroy), whose extra work is the XML, the look-ups and the checks. The
compute service's benchmark compares its end-to-end figures with these.

    python3 tools/bench/libvirt_ops.py [-n 10] [--json]

Needs root and libvirt (tools/install-deps.sh test); it starts libvirtd
with tools/start-libvirt.sh if it is not running. Guests are OS-less TCG
domains with 64 MiB; volume files are 64 MiB, in a temporary directory.
It measures; it asserts nothing.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import libvirt  # noqa: E402

from tether.drivers import qemu_img  # noqa: E402
from tether.drivers.virt import driver as virt_driver  # noqa: E402
from tether.drivers.virt.libvirt import config  # noqa: E402
from tether.drivers.virt.libvirt import driver as libvirt_driver  # noqa: E402

MiB = 1024 ** 2
OPS = ('define+start', 'attach-device', 'detach-device', 'blockResize',
       'destroy')
PREFIX = 'tether-bench-'


class Conf:
    """The [libvirt] options the driver reads, at their defaults."""
    virt_type = 'qemu'
    connection_uri = 'qemu:///system'
    file_backed_memory = 0
    nfs_mount_point_base = '/nonexistent'
    nfs_mount_options = None


def _timed(samples, op, fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    samples[op].append(time.perf_counter() - start)
    return result


def _volume(share, fmt):
    name = 'volume-%s' % uuid.uuid4()
    qemu_img.create(os.path.join(share, name), fmt, 64 * MiB)
    return {'driver_volume_type': 'nfs',
            'data': {'export': share, 'name': name, 'format': fmt,
                     'access_mode': 'rw'}}


def _path(info):
    return os.path.join(info['data']['export'], info['data']['name'])


def bench_bare(conn, share, rounds):
    samples = {op: [] for op in OPS}
    for i in range(rounds):
        root, data = _volume(share, 'raw'), _volume(share, 'qcow2')
        xml = config.to_xml(config.domain(
            name='%sbare-%d' % (PREFIX, i), uuid=str(uuid.uuid4()),
            memory_mib=64, vcpus=1,
            disks=[config.Disk(path=_path(root), fmt='raw', target='sda')]))
        disk = config.to_xml(config.disk(config.Disk(
            path=_path(data), fmt='qcow2', target='sdb')))
        flags = libvirt.VIR_DOMAIN_AFFECT_LIVE | \
            libvirt.VIR_DOMAIN_AFFECT_CONFIG

        def define_start():
            dom = conn.defineXML(xml)
            dom.create()
            return dom
        dom = _timed(samples, 'define+start', define_start)
        _timed(samples, 'attach-device', dom.attachDeviceFlags, disk, flags)
        _timed(samples, 'detach-device', dom.detachDeviceFlags, disk, flags)
        _timed(samples, 'blockResize', dom.blockResize, 'sda', 128 * MiB,
               libvirt.VIR_DOMAIN_BLOCK_RESIZE_BYTES)
        _timed(samples, 'destroy', dom.destroy)
        dom.undefine()
    return samples


def bench_driver(drv, share, rounds):
    samples = {op: [] for op in OPS}
    for i in range(rounds):
        root, data = _volume(share, 'raw'), _volume(share, 'qcow2')
        inst = virt_driver.Instance(uuid=str(uuid.uuid4()),
                                    name='%sdriver-%d' % (PREFIX, i),
                                    memory_mb=64, vcpus=1)
        _timed(samples, 'define+start', drv.spawn, inst, [root])
        _timed(samples, 'attach-device', drv.attach_volume, inst.uuid, data)
        _timed(samples, 'detach-device', drv.detach_volume, inst.uuid, data)
        _timed(samples, 'blockResize', drv.extend_volume, inst.uuid, root,
               128 * MiB)
        # destroy() also undefines the domain.
        _timed(samples, 'destroy', drv.destroy, inst.uuid)
    return samples


def _cleanup(conn):
    for dom in conn.listAllDomains(0):
        if dom.name().startswith(PREFIX):
            if dom.isActive():
                dom.destroy()
            dom.undefine()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('-n', '--rounds', type=int, default=10)
    parser.add_argument('--json', action='store_true',
                        help='print the figures as JSON (milliseconds)')
    args = parser.parse_args()

    subprocess.run([os.path.join(ROOT, 'tools', 'start-libvirt.sh')],
                   check=True)
    share = tempfile.mkdtemp(prefix='tether-bench-')
    os.chmod(share, 0o755)   # QEMU runs as libvirt-qemu
    drv = libvirt_driver.LibvirtDriver(Conf(), 'bench')
    conn = drv.host.get_connection()
    try:
        # One warm-up round each: the first start loads QEMU from disk.
        bench_bare(conn, share, 1)
        bench_driver(drv, share, 1)
        results = {'bare': bench_bare(conn, share, args.rounds),
                   'driver': bench_driver(drv, share, args.rounds)}
    finally:
        _cleanup(conn)
        shutil.rmtree(share, ignore_errors=True)

    figures = {kind: {op: {'p50_ms': round(statistics.median(s) * 1000, 1),
                           'max_ms': round(max(s) * 1000, 1)}
                      for op, s in samples.items()}
               for kind, samples in results.items()}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    lib, hv = drv.host.versions()
    print('libvirt %s, QEMU %s, TCG, %d rounds (ms)'
          % ('.'.join(map(str, lib)), '.'.join(map(str, hv)), args.rounds))
    print('%-14s %10s %10s %12s %12s' % ('operation', 'bare p50', 'bare max',
                                         'driver p50', 'driver max'))
    for op in OPS:
        b, d = figures['bare'][op], figures['driver'][op]
        print('%-14s %10.1f %10.1f %12.1f %12.1f' % (
            op, b['p50_ms'], b['max_ms'], d['p50_ms'], d['max_ms']))


if __name__ == '__main__':
    main()
