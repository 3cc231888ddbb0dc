#!/usr/bin/env python3
"""Compute API latency against the bare libvirt operations it is made of.

Measures, against a tether-aio over HTTP with openstacksdk, N rounds
(default 10) of:

* boot:   POST /servers booting from a volume (flavor m1.nano, networks
          "none") until the server is ACTIVE; also the time to the 202
* attach: POST /servers/{id}/os-volume_attachments until the volume is
          in-use
* detach: DELETE /servers/{id}/os-volume_attachments/{volume} until the
          volume is available
* delete: DELETE /servers/{id} until the server is gone (404)

and in the same run, round for round, the bare libvirt operations as
tools/bench/libvirt_ops.py times them (define+start, attach-device,
detach-device, destroy): libvirt-python directly, and through tether's
libvirt driver. It prints each operation's p50, p90 and max, the bare
p50, and the control plane's overhead in milliseconds and as a ratio.

    python3 tools/bench/compute_ops.py [-n 10] [--json PATH]

Needs root and libvirt (tools/install-deps.sh test); it starts libvirtd
with tools/start-libvirt.sh if it is not running. It starts its own
tether-aio on free ports and a state directory QEMU (user libvirt-qemu)
can reach, and removes every server, volume and guest it made. It
measures; it asserts nothing.
"""

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from aio_process import Aio  # noqa: E402
from aio_process import connect  # noqa: E402
from aio_process import log_tail  # noqa: E402
from aio_process import wait_for  # noqa: E402
import libvirt_ops  # noqa: E402
from openstack import exceptions as sdk_exc  # noqa: E402

FLAVOR = '1'          # m1.nano: 64 MiB, 1 vCPU (seeded by the migration)
# (row, tether samples, bare operation of libvirt_ops or None)
ROWS = (
    ('boot: POST to 202', 'boot_202', None),
    ('boot: to ACTIVE', 'boot', 'define+start'),
    ('attach: to in-use', 'attach', 'attach-device'),
    ('detach: to available', 'detach', 'detach-device'),
    ('delete: to 404', 'delete', 'destroy'),
)


# The tether side --------------------------------------------------------

class Tether:
    """One round at a time of boot, attach, detach and delete."""

    def __init__(self, conn, interval, timeout):
        self.conn = conn
        self.interval = interval
        self.timeout = timeout
        self.servers = set()    # made and not seen gone
        self.made = set()       # every server made
        self.volumes = set()    # made and not deleted

    def _volume_status(self, volume_id, wanted):
        status = self.conn.block_storage.get_volume(volume_id).status
        if status == 'error':
            raise RuntimeError('volume %s went to error' % volume_id)
        return status == wanted

    def _server_status(self, server_id):
        server = self.conn.compute.get_server(server_id)
        if server.status == 'ERROR':
            raise RuntimeError('server %s went to ERROR: %s'
                               % (server_id, server.fault))
        return server.status == 'ACTIVE'

    def _volume_gone(self, volume_id):
        try:
            self.conn.block_storage.get_volume(volume_id)
        except sdk_exc.NotFoundException:
            return True
        return False

    def delete_volume(self, volume_id, interval, timeout):
        """Delete a volume and wait until its file is gone with it."""
        self.conn.block_storage.delete_volume(volume_id)
        wait_for(lambda: self._volume_gone(volume_id), interval, timeout,
                 'delete of volume %s' % volume_id)
        self.volumes.discard(volume_id)

    def _gone(self, server_id):
        try:
            self.conn.compute.get_server(server_id)
        except sdk_exc.NotFoundException:
            return True
        return False

    def new_volume(self, name):
        volume = self.conn.block_storage.create_volume(size=1, name=name)
        self.volumes.add(volume.id)
        wait_for(lambda: self._volume_status(volume.id, 'available'),
                 self.interval, self.timeout, 'volume %s' % volume.id)
        return volume.id

    def round(self, samples, index):
        root = self.new_volume('bench-root-%s' % index)
        data = self.new_volume('bench-data-%s' % index)

        t0 = time.perf_counter()
        server = self.conn.compute.create_server(
            name='bench-%s' % index, flavor_id=FLAVOR, networks='none',
            block_device_mapping=[{
                'uuid': root, 'source_type': 'volume',
                'destination_type': 'volume', 'boot_index': 0}])
        t202 = time.perf_counter()
        self.servers.add(server.id)
        self.made.add(server.id)
        _, t_active = wait_for(lambda: self._server_status(server.id),
                               self.interval, self.timeout,
                               'boot of %s' % server.id)
        samples['boot_202'].append(t202 - t0)
        samples['boot'].append(t_active - t0)

        t0 = time.perf_counter()
        self.conn.compute.create_volume_attachment(server.id, volume=data)
        _, t1 = wait_for(lambda: self._volume_status(data, 'in-use'),
                         self.interval, self.timeout, 'attach of %s' % data)
        samples['attach'].append(t1 - t0)

        t0 = time.perf_counter()
        self.conn.compute.delete_volume_attachment(server.id, data,
                                                   ignore_missing=False)
        _, t1 = wait_for(lambda: self._volume_status(data, 'available'),
                         self.interval, self.timeout, 'detach of %s' % data)
        samples['detach'].append(t1 - t0)

        t0 = time.perf_counter()
        self.conn.compute.delete_server(server.id)
        _, t1 = wait_for(lambda: self._gone(server.id), self.interval,
                         self.timeout, 'delete of %s' % server.id)
        samples['delete'].append(t1 - t0)
        self.servers.discard(server.id)

        # The root volume is left available (no delete_on_termination).
        for volume_id in (root, data):
            wait_for(lambda: self._volume_status(volume_id, 'available'),
                     self.interval, self.timeout, 'release of %s'
                     % volume_id)
            self.delete_volume(volume_id, self.interval, self.timeout)

    def cleanup(self):
        """Delete what a failed round left; report what could not go."""
        left = []
        for server_id in list(self.servers):
            try:
                self.conn.compute.delete_server(server_id)
                wait_for(lambda: self._gone(server_id), 0.1, 120,
                         'delete of %s' % server_id)
                self.servers.discard(server_id)
            except Exception as exc:  # noqa: BLE001 - report, go on
                left.append('server %s: %s' % (server_id, exc))
        for volume_id in list(self.volumes):
            try:
                wait_for(lambda: self.conn.block_storage.get_volume(
                    volume_id).status in ('available', 'error'), 0.1, 60,
                    'release of %s' % volume_id)
                self.delete_volume(volume_id, 0.1, 60)
            except sdk_exc.NotFoundException:
                self.volumes.discard(volume_id)
            except Exception as exc:  # noqa: BLE001
                left.append('volume %s: %s' % (volume_id, exc))
        return left


def remove_guests(conn, uuids):
    """Guests of our servers that tether did not remove (a safety net)."""
    removed = []
    for dom in conn.listAllDomains(0):
        if dom.UUIDString() in uuids:
            if dom.isActive():
                dom.destroy()
            dom.undefine()
            removed.append(dom.name())
    return removed


# Figures ----------------------------------------------------------------

def nearest_rank(sorted_values, p):
    return sorted_values[max(0, math.ceil(p / 100.0 * len(sorted_values))
                             - 1)]


def figures(samples):
    """p50 is the median, as libvirt_ops.py reports it; p90 the nearest
    rank (the 9th of 10)."""
    out = {}
    for op, values in samples.items():
        if not values:
            continue
        values = sorted(values)
        out[op] = {'p50_ms': statistics.median(values) * 1000,
                   'p90_ms': nearest_rank(values, 90) * 1000,
                   'max_ms': values[-1] * 1000, 'n': len(values)}
    return out


def print_table(tether, bare, driver, rounds, interval):
    print()
    print('%d rounds, polling every %d ms; p50 median, p90 nearest rank '
          '(ms)'
          % (rounds, interval * 1000))
    print('%-21s %8s %8s %8s | %-13s %8s %8s | %9s %6s' % (
        'tether (HTTP)', 'p50', 'p90', 'max', 'bare libvirt', 'p50',
        'driver', 'overhead', 'ratio'))
    for label, key, bare_op in ROWS:
        t = tether.get(key)
        if t is None:
            continue
        line = '%-21s %8.1f %8.1f %8.1f | ' % (label, t['p50_ms'],
                                               t['p90_ms'], t['max_ms'])
        if bare_op and bare_op in bare:
            b, d = bare[bare_op]['p50_ms'], driver[bare_op]['p50_ms']
            line += '%-13s %8.1f %8.1f | %9.1f %5.1fx' % (
                bare_op, b, d, t['p50_ms'] - b, t['p50_ms'] / b)
        else:
            line += '%-13s %8s %8s | %9s %6s' % ('', '', '', '', '')
        print(line)
    print('(bare/driver: p50 of libvirt_ops.py rounds run in between; '
          'overhead = tether p50 - bare p50; ratio = tether p50 / bare p50)')


def load_average():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


# Main -------------------------------------------------------------------

def argument_parser(rounds_help='Measured rounds of each operation.'):
    """The options every benchmark of a tether-aio it starts shares."""
    p = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument('-n', '--rounds', type=int, default=10,
                   help=rounds_help)
    p.add_argument('--interval', type=float, default=0.02,
                   help='Seconds between two polls of a status.')
    p.add_argument('--timeout', type=float, default=120,
                   help='Seconds an operation may take before the run '
                        'fails.')
    p.add_argument('--state-dir',
                   help='State directory of the tether-aio started here; '
                        'QEMU must reach it (every directory above it '
                        'o+x). Default: a new one under /var/tmp, removed '
                        'afterwards.')
    p.add_argument('--json', metavar='PATH',
                   help='Also write every sample and figure as JSON.')
    return p


def checked_args(p, argv):
    args = p.parse_args(argv)
    if args.rounds < 1:
        p.error('--rounds must be at least 1')
    return args


def parse_args(argv):
    return checked_args(argument_parser(), argv)


def measure(args, aio, tether, lconn, drv, share, results):
    """The warm-up round, then the measured rounds into ``results``."""
    samples, bare, driver = (results['tether'], results['bare'],
                             results['driver'])
    # One unmeasured round each: the first QEMU start loads it from disk,
    # the first requests import and connect.
    libvirt_ops.bench_bare(lconn, share, 1)
    libvirt_ops.bench_driver(drv, share, 1)
    tether.round({key: [] for key in samples}, 'warmup')
    for i in range(args.rounds):
        # Interleaved, so that a change of load on a shared machine
        # touches both sides alike.
        for op, values in libvirt_ops.bench_bare(lconn, share, 1).items():
            bare[op] += values
        for op, values in libvirt_ops.bench_driver(drv, share, 1).items():
            driver[op] += values
        tether.round(samples, i)
        print('round %d: boot %.0f ms, attach %.0f ms, detach %.0f ms, '
              'delete %.0f ms; bare define+start %.0f ms' % (
                  i + 1, samples['boot'][-1] * 1000,
                  samples['attach'][-1] * 1000,
                  samples['detach'][-1] * 1000,
                  samples['delete'][-1] * 1000,
                  bare['define+start'][-1] * 1000), flush=True)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    subprocess.run([os.path.join(ROOT, 'tools', 'start-libvirt.sh')],
                   check=True)
    print('load average at the start: %s' % load_average(), flush=True)
    share = tempfile.mkdtemp(prefix='tether-bench-')
    os.chmod(share, 0o755)   # QEMU runs as libvirt-qemu
    drv = libvirt_ops.libvirt_driver.LibvirtDriver(libvirt_ops.Conf(),
                                                   'bench')
    lconn = drv.host.get_connection()
    results = {'tether': {key: [] for _label, key, _bare in ROWS},
               'bare': {op: [] for op in libvirt_ops.OPS},
               'driver': {op: [] for op in libvirt_ops.OPS}}
    aio = tether = None
    problems = []
    try:
        print('starting tether-aio ...', flush=True)
        aio = Aio(args.state_dir)
        print('tether-aio pid %d: volume %s, compute %s (state %s)'
              % (aio.proc.pid, aio.volume_url, aio.compute_url,
                 aio.state_dir), flush=True)
        tether = Tether(connect(aio, 'bench-' + uuid.uuid4().hex[:8]),
                        args.interval, args.timeout)
        measure(args, aio, tether, lconn, drv, share, results)
    except BaseException:
        if aio is not None:
            print('the run failed; tether-aio\'s log ends:\n%s'
                  % log_tail(aio.log_path), file=sys.stderr)
        raise
    finally:
        if tether is not None:
            problems += tether.cleanup()
        if aio is not None:
            aio.stop()
        libvirt_ops._cleanup(lconn)
        stray = remove_guests(lconn, tether.made if tether else ())
        if stray:
            problems.append('guests tether left behind, removed: %s'
                            % ', '.join(stray))
        shutil.rmtree(share, ignore_errors=True)
        if aio is not None:
            aio.cleanup()
        for problem in problems:
            print('cleanup: %s' % problem, file=sys.stderr)

    figs = {kind: figures(values) for kind, values in results.items()}
    lib, hv = drv.host.versions()
    print('libvirt %s, QEMU %s, TCG; load average at the end: %s'
          % ('.'.join(map(str, lib)), '.'.join(map(str, hv)),
             load_average()))
    print_table(figs['tether'], figs['bare'], figs['driver'], args.rounds,
                args.interval)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'figures_ms': figs, 'samples_s': results,
                       'rounds': args.rounds, 'interval_s': args.interval},
                      f, indent=1)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
