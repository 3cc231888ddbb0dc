#!/usr/bin/env python3
"""Online extend of an attached volume against the bare operations.

Measures, against a tether-aio over HTTP with openstacksdk, N rounds
(default 10). Each round boots a server from a 1 GiB volume (flavor '1',
m1.nano; networks "none"), creates a 1 GiB data volume and attaches it
(POST /servers/{id}/os-volume_attachments), then extends that volume
twice, to 2 and then 3 GiB, so two samples a round. One sample is

    POST /v3/volumes/{id}/action {"os-extend": {"new_size": k}}
    (OpenStack-API-Version: volume 3.71)

until GET /v3/volumes/{id} shows status in-use and size k, polled every
20 ms (--interval); the time to the 202 is kept too. The flow behind it is
doc/source/online-extend.rst: the volume manager's qemu-img resize
(which fails on QEMU's lock), the volume-extended event to
the compute API, its RPC cast, the compute's GET of the volume, libvirt's
blockResize, and os-extend_volume_completion.

In the same run, round for round, the bare operations on a guest of its
own (an OS-less TCG domain defined with libvirt-python as libvirt_ops.py
defines them, with a 64 MiB root disk and two 1 GiB raw data disks): one
virDomainBlockResize (VIR_DOMAIN_BLOCK_RESIZE_BYTES, QMP block_resize) of
a data disk to 2 and then 3 GiB, each followed by one
`qemu-img info -U --output=json` of its file; also the `qemu-img resize`
that fails on QEMU's lock (what the volume manager tries first), and the
same three through tether's wrappers ("driver": the libvirt driver's
extend_volume, tether.drivers.qemu_img with prlimit). It prints each
figure's p50, p90 and max, the bare p50, the control plane's overhead
(tether p50 - bare p50) in milliseconds and as a ratio, the load average,
and where the time goes, from the timestamps of tether-aio's log.

    python3 tools/bench/online_extend.py [-n 10] [--json PATH]

Needs root and libvirt, as compute_ops.py, whose tether-aio, connections,
polling and figures it reuses. tether-aio runs in a session of its own
(a Ctrl-C at the terminal reaches only this script, which then cleans up
through it) and logs qemu-img commands (oslo_concurrency.processutils)
and its outgoing HTTP requests (urllib3) at DEBUG, for the attribution
(--no-attribution: the default log levels). At the end, after an error
or a Ctrl-C, it deletes every server and volume it made, stops tether-aio,
removes its own guests (named tether-extend-bench-<pid>-*, removed by
UUID: other runs' domains are left alone) and any guest of its servers
tether left. It measures; it asserts nothing.
"""

import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import compute_ops  # noqa: E402
import libvirt  # noqa: E402
import libvirt_ops  # noqa: E402
import requests  # noqa: E402
from oslo_log import _options as log_options  # noqa: E402
from openstack import exceptions as sdk_exc  # noqa: E402

from tether.drivers import qemu_img  # noqa: E402
from tether.drivers.virt.libvirt import config  # noqa: E402
from tether import exception  # noqa: E402

GiB = 1024 ** 3
MICROVERSION = '3.71'
SIZES = (2, 3)      # each round extends its 1 GiB volume to 2, then 3 GiB
# Not libvirt_ops.PREFIX: a concurrent libvirt_ops.py or compute_ops.py
# removes every tether-bench-* domain when it ends.
GUEST_PREFIX = 'tether-extend-bench-'
DELETABLE = ('available', 'error', 'error_extending', 'error_restoring',
             'error_managing', 'error_deleting')

# The attribution reads these loggers' DEBUG lines in tether-aio's log:
# the start and end (with the duration) of each qemu-img command, and the
# response line of each HTTP request tether makes (the event, the compute's
# GET of the volume, the completion).
DEBUG_LOGGERS = ('oslo_concurrency.processutils', 'tether.drivers.qemu_img',
                 'urllib3.connectionpool')
LOG_CONFIG = 'default_log_levels = %s\n' % ','.join(
    [level for level in log_options.DEFAULT_LOG_LEVELS
     if level.split('=')[0] not in DEBUG_LOGGERS] +
    ['%s=DEBUG' % name for name in DEBUG_LOGGERS])

TETHER_ROWS = (
    ('extend: POST to 202', 'post_202'),
    ('extend: to in-use, size k', 'extend'),
    ('  k=2 (1 -> 2 GiB)', 'extend_2'),
    ('  k=3 (2 -> 3 GiB)', 'extend_3'),
)
# (row, bare samples, driver samples)
BARE_ROWS = (
    ('blockResize', 'blockResize', 'extend_volume'),
    ('qemu-img info -U', 'info', 'info_driver'),
    ('blockResize + info', 'bare', 'driver'),
    ('qemu-img resize (lock)', 'resize', 'resize_driver'),
    ('bare + failed resize', 'bare_resize', 'driver_resize'),
)


# tether-aio in a session of its own ---------------------------------------

class _NewSession:
    """compute_ops' ``subprocess`` while it starts tether-aio: Popen with
    start_new_session, so that a Ctrl-C at the terminal (SIGINT to the
    foreground process group) does not stop tether-aio before this
    script's cleanup has used it."""

    def __getattr__(self, name):
        return getattr(subprocess, name)

    @staticmethod
    def Popen(*args, **kwargs):  # noqa: N802 - subprocess's name
        kwargs.setdefault('start_new_session', True)
        return subprocess.Popen(*args, **kwargs)


def start_aio(state_dir, attribution):
    saved = compute_ops.subprocess, compute_ops.SERVER_CONFIG
    compute_ops.subprocess = _NewSession()
    if attribution:
        compute_ops.SERVER_CONFIG += LOG_CONFIG
    try:
        return compute_ops.Aio(state_dir)
    finally:
        compute_ops.subprocess, compute_ops.SERVER_CONFIG = saved


# The tether side ------------------------------------------------------------

class ExtendTether(compute_ops.Tether):
    """Rounds of boot, attach, two online extends, detach and delete;
    only the extends are timed."""

    def __init__(self, conn, project, volume_url, interval, timeout):
        super().__init__(conn, interval, timeout)
        self.project = project
        self.volume_url = volume_url.rstrip('/')

    def _volume(self, volume_id):
        resp = self.conn.block_storage.get('/volumes/%s' % volume_id,
                                           microversion=MICROVERSION)
        return resp.json()['volume']

    def _extended(self, volume_id, size):
        volume = self._volume(volume_id)
        if volume['status'] in ('error', 'error_extending'):
            raise RuntimeError('volume %s went to %s' % (volume_id,
                                                         volume['status']))
        return volume['status'] == 'in-use' and volume['size'] == size

    def extend(self, volume_id, size, samples, marks):
        wall = time.time()
        t0 = time.perf_counter()
        resp = self.conn.block_storage.post(
            '/volumes/%s/action' % volume_id,
            json={'os-extend': {'new_size': size}},
            microversion=MICROVERSION, raise_exc=False)
        t202 = time.perf_counter()
        if resp.status_code != 202:
            raise RuntimeError('os-extend of %s to %sG: %s %s' % (
                volume_id, size, resp.status_code, resp.text[:500]))
        _, t1 = compute_ops.wait_for(
            lambda: self._extended(volume_id, size), self.interval,
            self.timeout, 'extend of %s to %sG' % (volume_id, size))
        samples['post_202'].append(t202 - t0)
        samples['extend'].append(t1 - t0)
        samples['extend_%d' % size].append(t1 - t0)
        marks.append({'volume': volume_id, 'size': size,
                      'request_id': resp.headers.get(
                          'x-openstack-request-id'),
                      'wall_start': wall, 'wall_202': wall + (t202 - t0),
                      'wall_end': wall + (t1 - t0)})

    def round(self, samples, marks, index):
        root = self.new_volume('bench-root-%s' % index)
        data = self.new_volume('bench-data-%s' % index)
        server = self.conn.compute.create_server(
            name='bench-extend-%s' % index, flavor_id=compute_ops.FLAVOR,
            networks='none', block_device_mapping=[{
                'uuid': root, 'source_type': 'volume',
                'destination_type': 'volume', 'boot_index': 0}])
        self.servers.add(server.id)
        self.made.add(server.id)
        compute_ops.wait_for(lambda: self._server_status(server.id),
                             self.interval, self.timeout,
                             'boot of %s' % server.id)
        self.conn.compute.create_volume_attachment(server.id, volume=data)
        compute_ops.wait_for(lambda: self._volume_status(data, 'in-use'),
                             self.interval, self.timeout,
                             'attach of %s' % data)

        for size in SIZES:
            self.extend(data, size, samples, marks)

        self.conn.compute.delete_volume_attachment(server.id, data,
                                                   ignore_missing=False)
        compute_ops.wait_for(lambda: self._volume_status(data, 'available'),
                             self.interval, self.timeout,
                             'detach of %s' % data)
        self.conn.compute.delete_server(server.id)
        compute_ops.wait_for(lambda: self._gone(server.id), self.interval,
                             self.timeout, 'delete of %s' % server.id)
        self.servers.discard(server.id)
        for volume_id in (root, data):
            compute_ops.wait_for(
                lambda: self._volume_status(volume_id, 'available'),
                self.interval, self.timeout, 'release of %s' % volume_id)
            self.delete_volume(volume_id, self.interval, self.timeout)
        return server.id

    def _status(self, volume_id):
        return self.conn.block_storage.get_volume(volume_id).status

    def _admin_reset(self, volume_id):
        """Last resort for a volume stuck in a status that cannot be
        deleted: os-reset_status as admin (noauth user ``admin``)."""
        requests.post(
            '%s/volumes/%s/action' % (self.volume_url, volume_id),
            json={'os-reset_status': {'status': 'available',
                                      'attach_status': 'detached'}},
            headers={'X-Auth-Token': 'admin:%s' % self.project,
                     'OpenStack-API-Version': 'volume ' + MICROVERSION},
            timeout=30).raise_for_status()

    def cleanup(self):
        """Delete what a failed or interrupted round left (a volume may be
        extending or error_extending); report what could not go."""
        left = []
        if self.servers or self.volumes:
            print('cleanup: deleting %d servers and %d volumes left by the '
                  'last round' % (len(self.servers), len(self.volumes)),
                  file=sys.stderr, flush=True)
        for server_id in list(self.servers):
            try:
                try:
                    self.conn.compute.delete_server(server_id)
                except sdk_exc.NotFoundException:
                    pass
                compute_ops.wait_for(lambda: self._gone(server_id), 0.1,
                                     120, 'delete of %s' % server_id)
                self.servers.discard(server_id)
            except Exception as exc:  # noqa: BLE001 - report, go on
                left.append('server %s: %s' % (server_id, exc))
        for volume_id in list(self.volumes):
            try:
                try:
                    compute_ops.wait_for(
                        lambda: self._status(volume_id) in DELETABLE, 0.1,
                        60, 'release of %s' % volume_id)
                except compute_ops.TimedOut:
                    self._admin_reset(volume_id)
                self.delete_volume(volume_id, 0.1, 60)
            except sdk_exc.NotFoundException:
                self.volumes.discard(volume_id)
            except Exception as exc:  # noqa: BLE001
                left.append('volume %s: %s' % (volume_id, exc))
        return left


# The bare side --------------------------------------------------------------

def _timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def _qemu_img_info(path):
    subprocess.run(['qemu-img', 'info', '-U', '--output=json', path],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)


def _qemu_img_resize(path, size_bytes):
    """The volume manager's first try: it fails on QEMU's write lock."""
    proc = subprocess.run(['qemu-img', 'resize', '-f', 'raw', path,
                           str(size_bytes)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode == 0 or 'lock' not in proc.stderr:
        raise RuntimeError('qemu-img resize of %s did not fail on the lock '
                           '(rc %d): %s' % (path, proc.returncode,
                                            proc.stderr.strip()))


def _driver_resize(path, size_bytes):
    try:
        qemu_img.resize(path, 'raw', size_bytes)
    except exception.ImageLocked:
        return
    raise RuntimeError('qemu_img.resize of %s did not fail on the lock'
                       % path)


class Bare:
    """A guest of our own per round: root sda, data disks sdb (grown with
    libvirt-python) and sdc (grown through tether's libvirt driver)."""

    def __init__(self, lconn, drv, share):
        self.lconn = lconn
        self.drv = drv
        self.share = share
        self.uuids = set()      # guests defined and not seen undefined

    def _file(self, size_bytes):
        name = 'volume-%s' % uuid.uuid4()
        qemu_img.create(os.path.join(self.share, name), 'raw', size_bytes)
        return {'driver_volume_type': 'nfs',
                'data': {'export': self.share, 'name': name,
                         'format': 'raw', 'access_mode': 'rw'}}

    def round(self, samples, index):
        root = self._file(64 * libvirt_ops.MiB)
        bare, drvd = self._file(GiB), self._file(GiB)
        files = [libvirt_ops._path(info) for info in (root, bare, drvd)]
        dom_uuid = str(uuid.uuid4())
        xml = config.to_xml(config.domain(
            name='%s%d-%s' % (GUEST_PREFIX, os.getpid(), index),
            uuid=dom_uuid, memory_mib=64, vcpus=1,
            disks=[config.Disk(path=path, fmt='raw', target=target)
                   for path, target in zip(files, ('sda', 'sdb', 'sdc'))]))
        try:
            dom = self.lconn.defineXML(xml)
            self.uuids.add(dom_uuid)
            dom.create()
            for size in SIZES:
                t_br, _ = _timed(dom.blockResize, 'sdb', size * GiB,
                                 libvirt.VIR_DOMAIN_BLOCK_RESIZE_BYTES)
                t_info, _ = _timed(_qemu_img_info, files[1])
                t_rs, _ = _timed(_qemu_img_resize, files[1],
                                 (size + 1) * GiB)
                t_dx, grown = _timed(self.drv.extend_volume, dom_uuid, drvd,
                                     size * GiB)
                if not grown:
                    raise RuntimeError('the driver did not grow sdc')
                t_di, info = _timed(qemu_img.info, files[2], 'raw', True)
                if info.virtual_size != size * GiB:
                    raise RuntimeError('sdc is %s bytes, not %s'
                                       % (info.virtual_size, size * GiB))
                t_dr, _ = _timed(_driver_resize, files[2], (size + 1) * GiB)
                for key, value in (
                        ('blockResize', t_br), ('info', t_info),
                        ('bare', t_br + t_info), ('resize', t_rs),
                        ('bare_resize', t_br + t_info + t_rs),
                        ('extend_volume', t_dx), ('info_driver', t_di),
                        ('driver', t_dx + t_di), ('resize_driver', t_dr),
                        ('driver_resize', t_dx + t_di + t_dr)):
                    samples[key].append(value)
        finally:
            self.remove()
            for path in files:
                try:
                    os.unlink(path)
                except OSError:
                    pass

    def remove(self):
        """Destroy and undefine our guests (by UUID, not by prefix)."""
        for dom_uuid in list(self.uuids):
            try:
                dom = self.lconn.lookupByUUIDString(dom_uuid)
            except libvirt.libvirtError:
                self.uuids.discard(dom_uuid)
                continue
            if dom.isActive():
                dom.destroy()
            dom.undefine()
            self.uuids.discard(dom_uuid)


# Where the time goes: tether-aio's log -------------------------------------

LOG_LINE = re.compile(r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) ')

# (marker, what ends there, the test of a log line; v = the volume id)
MARKERS = (
    ('resize_start', 'API: claim, reserve, RPC cast; manager starts '
                     'qemu-img resize',
     lambda line, v: 'Running cmd' in line and 'qemu-img resize' in line
     and v in line),
    ('resize_end', 'qemu-img resize, fails on the lock',
     lambda line, v: 'CMD "' in line and 'qemu-img resize' in line
     and v in line),
    ('handed', 'store extend_new_size (admin metadata)',
     lambda line, v: 'Volume %s is held by the guest' % v in line),
    ('event_done', 'event POST (compute API: action, RPC cast)',
     lambda line, v: '"POST ' in line and 'os-server-external-events'
     in line),
    ('get_done', 'compute: takes the cast, GETs the volume',
     lambda line, v: '"GET ' in line and '/volumes/%s ' % v in line),
    ('resized', 'compute: blockResize (+ look-up, XML)',
     lambda line, v: 'Resized ' in line and v in line),
    ('completed', 'completion POST: volume API settles',
     lambda line, v: 'Volume %s extended from' % v in line),
)
CLIENT_STEP = 'client: sees in-use and k (polling)'
OFF_PATH = (
    ('completion_done', 'compute: completion answered (202)',
     lambda line, v: '"POST ' in line and '/volumes/%s/action' % v in line),
    ('compute_done', 'compute: done (BDM updated)',
     lambda line, v: 'Extended volume %s of server' % v in line),
)


def read_log(path):
    """[(wall time, line)] of the lines with a timestamp (local time, as
    oslo.log writes it)."""
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            match = LOG_LINE.match(line)
            if match:
                stamp = datetime.datetime.strptime(match.group(1),
                                                   '%Y-%m-%d %H:%M:%S.%f')
                out.append((stamp.timestamp(), line))
    return out


def attribute(log_path, marks):
    """For each measured extend, the time (s, from the client's POST) of
    each marker, found in order between its POST and the next one's."""
    lines = read_log(log_path)
    found = []
    for i, mark in enumerate(marks):
        # The log has milliseconds; the client's clock, microseconds.
        start = mark['wall_start'] - 0.002
        end = (marks[i + 1]['wall_start'] if i + 1 < len(marks)
               else float('inf'))
        window = [(t, line) for t, line in lines if start <= t < end]
        times = {'client_202': mark['wall_202'] - mark['wall_start'],
                 'client_end': mark['wall_end'] - mark['wall_start']}
        pos = 0
        for name, _what, test in MARKERS:
            for j in range(pos, len(window)):
                if test(window[j][1], mark['volume']):
                    times[name] = window[j][0] - mark['wall_start']
                    pos = j + 1
                    break
        for name, _what, test in OFF_PATH:
            for t, line in window:
                if test(line, mark['volume']):
                    times[name] = t - mark['wall_start']
                    break
        found.append(times)
    return found


def attribution_table(found):
    """Rows (what, p50 of its step, p50 of its offset, samples): a step is
    a marker's time less the previous marker's, per extend."""
    rows = []
    names = [m[0] for m in MARKERS] + ['client_end']
    whats = [m[1] for m in MARKERS] + [CLIENT_STEP]
    prev = None
    for name, what in zip(names, whats):
        steps = [f[name] - (f[prev] if prev else 0.0) for f in found
                 if name in f and (prev is None or prev in f)]
        offsets = [f[name] for f in found if name in f]
        rows.append((what, median_ms(steps), median_ms(offsets),
                     len(offsets)))
        prev = name
    for name, what, _test in OFF_PATH:
        offsets = [f[name] for f in found if name in f]
        rows.append(('(after) ' + what, None, median_ms(offsets),
                     len(offsets)))
    return rows


def median_ms(values):
    if not values:
        return None
    values = sorted(values)
    mid = len(values) // 2
    value = values[mid] if len(values) % 2 else (values[mid - 1] +
                                                 values[mid]) / 2
    return value * 1000


# Output ---------------------------------------------------------------------

def _fmt(value):
    return '%8.1f' % value if value is not None else '%8s' % '-'


def print_table(figs, attribution, rounds, interval, loads):
    tether, bare = figs['tether'], figs['bare']
    print()
    print('%d rounds x %d extends of the same attached 1 GiB volume '
          '(k = %s GiB), %d samples; polling every %d ms; p50 median, p90 '
          'nearest rank (ms)' % (rounds, len(SIZES),
                                 ', '.join(map(str, SIZES)),
                                 tether['extend']['n'], interval * 1000))
    print('%-27s %8s %8s %8s | %9s %6s' % (
        'tether (HTTP, 3.71)', 'p50', 'p90', 'max', 'overhead', 'ratio'))
    b50 = bare['bare']['p50_ms']
    for label, key in TETHER_ROWS:
        t = tether.get(key)
        if t is None:
            continue
        line = '%-27s %8.1f %8.1f %8.1f | ' % (label, t['p50_ms'],
                                               t['p90_ms'], t['max_ms'])
        if key.startswith('extend'):
            line += '%9.1f %5.1fx' % (t['p50_ms'] - b50, t['p50_ms'] / b50)
        print(line)
    print()
    print('%-27s %8s %8s %8s | %8s %8s %8s' % (
        'bare (own TCG guest)', 'p50', 'p90', 'max', 'drv p50', 'drv p90',
        'drv max'))
    for label, key, dkey in BARE_ROWS:
        b, d = bare[key], bare[dkey]
        print('%-27s %8.1f %8.1f %8.1f | %8.1f %8.1f %8.1f' % (
            label, b['p50_ms'], b['p90_ms'], b['max_ms'],
            d['p50_ms'], d['p90_ms'], d['max_ms']))
    t50 = tether['extend']['p50_ms']
    r50 = bare['bare_resize']['p50_ms']
    print()
    print('overhead of the control plane: tether p50 %.1f - bare p50 '
          '(blockResize + qemu-img info) %.1f = %.1f ms, ratio %.1fx'
          % (t50, b50, t50 - b50, t50 / b50))
    print('  against bare + the failed qemu-img resize (%.1f ms): %.1f ms, '
          '%.1fx' % (r50, t50 - r50, t50 / r50))
    settled = dict((row[0], row[2]) for row in attribution or ()).get(
        MARKERS[-1][1])
    if settled is not None:
        print('  without the client\'s polling: the settle\'s log line comes '
              '%.1f ms after the POST (p50): %.1f ms, %.1fx'
              % (settled, settled - b50, settled / b50))
    print('(bare: libvirt-python blockResize VIR_DOMAIN_BLOCK_RESIZE_BYTES '
          'and qemu-img run directly, on a guest of this script, round for '
          'round; driver: the same through tether\'s libvirt driver '
          'extend_volume and tether.drivers.qemu_img, on its sdc)')
    print('load average (1, 5, 15 min): start %s, end %s; %d cores'
          % (loads['start'], loads['end'], os.cpu_count()))
    if attribution:
        print()
        print('where the time goes (from tether-aio\'s log, ms resolution; '
              'p50 of each step and of its end from the POST)')
        print('%-58s %8s %8s %4s' % ('step (ends when ...)', 'step', 'at',
                                     'n'))
        for what, step, at, n in attribution:
            print('%-58s %s %s %4d' % (what, _fmt(step), _fmt(at), n))


# Main ---------------------------------------------------------------------

def parse_args(argv):
    p = compute_ops.argument_parser('Measured rounds (two extends each).')
    p.description = __doc__.split('\n\n')[0]
    p.add_argument('--no-attribution', action='store_true',
                   help='Leave tether-aio\'s log levels at their defaults '
                        '(no qemu-img or HTTP lines: no attribution).')
    return compute_ops.checked_args(p, argv)


def _interrupt(signum, _frame):
    raise KeyboardInterrupt('signal %d' % signum)


def measure(args, tether, bare, results, marks):
    # One unmeasured round each: the first QEMU start loads it from disk,
    # the first requests import and connect.
    bare.round({key: [] for key in results['bare']}, 'warmup')
    tether.round({key: [] for key in results['tether']}, [], 'warmup')
    for i in range(args.rounds):
        # Interleaved, so that a change of load touches both sides alike.
        bare.round(results['bare'], i)
        tether.round(results['tether'], marks, i)
        t, b = results['tether'], results['bare']
        print('round %d: extend %s ms (POST to 202 %s ms); bare '
              'blockResize+info %s ms; load %s' % (
                  i + 1, ', '.join('%.0f' % (v * 1000)
                                   for v in t['extend'][-len(SIZES):]),
                  ', '.join('%.0f' % (v * 1000)
                            for v in t['post_202'][-len(SIZES):]),
                  ', '.join('%.0f' % (v * 1000)
                            for v in b['bare'][-len(SIZES):]),
                  compute_ops.load_average().split()[0]), flush=True)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _interrupt)
    subprocess.run([os.path.join(ROOT, 'tools', 'start-libvirt.sh')],
                   check=True)
    loads = {'start': compute_ops.load_average()}
    print('load average at the start: %s' % loads['start'], flush=True)
    share = tempfile.mkdtemp(prefix='tether-bench-')
    os.chmod(share, 0o755)   # QEMU runs as libvirt-qemu
    drv = libvirt_ops.libvirt_driver.LibvirtDriver(libvirt_ops.Conf(),
                                                   'bench')
    lconn = drv.host.get_connection()
    bare = Bare(lconn, drv, share)
    results = {'tether': {key: [] for key in
                          ('post_202', 'extend') +
                          tuple('extend_%d' % k for k in SIZES)},
               'bare': {key: [] for _label, b, d in BARE_ROWS
                        for key in (b, d)}}
    marks = []
    aio = tether = None
    attribution = found = None
    problems = []
    try:
        print('starting tether-aio ...', flush=True)
        aio = start_aio(args.state_dir, not args.no_attribution)
        print('tether-aio pid %d: volume %s, compute %s (state %s)'
              % (aio.proc.pid, aio.volume_url, aio.compute_url,
                 aio.state_dir), flush=True)
        project = 'bench-' + uuid.uuid4().hex[:8]
        tether = ExtendTether(compute_ops.connect(aio, project), project,
                              aio.volume_url, args.interval, args.timeout)
        measure(args, tether, bare, results, marks)
    except BaseException as exc:
        if aio is not None:
            print('the run failed (%r); tether-aio\'s log ends:\n%s'
                  % (exc, compute_ops.log_tail(aio.log_path)),
                  file=sys.stderr)
        raise
    finally:
        # A second Ctrl-C must not cut the cleanup short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print('cleaning up ...', file=sys.stderr, flush=True)
        if tether is not None:
            problems += tether.cleanup()
        if aio is not None:
            aio.stop()
        try:
            bare.remove()
        except libvirt.libvirtError as exc:
            problems.append('own guests %s: %s' % (sorted(bare.uuids), exc))
        stray = compute_ops.remove_guests(lconn,
                                          tether.made if tether else ())
        if stray:
            problems.append('guests tether left behind, removed: %s'
                            % ', '.join(stray))
        shutil.rmtree(share, ignore_errors=True)
        if aio is not None:
            if marks and not args.no_attribution:
                try:
                    found = attribute(aio.log_path, marks)
                    attribution = attribution_table(found)
                except (OSError, ValueError) as exc:
                    problems.append('could not read tether-aio\'s log: %s'
                                    % exc)
            aio.cleanup()
        for problem in problems:
            print('cleanup: %s' % problem, file=sys.stderr)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    figs = {kind: compute_ops.figures(values)
            for kind, values in results.items()}
    loads['end'] = compute_ops.load_average()
    lib, hv = drv.host.versions()
    print('libvirt %s, QEMU %s, TCG' % ('.'.join(map(str, lib)),
                                        '.'.join(map(str, hv))))
    print_table(figs, attribution, args.rounds, args.interval, loads)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'figures_ms': figs, 'samples_s': results,
                       'extends': marks, 'log_offsets_s': found,
                       'attribution_ms': [
                           {'step': what, 'p50_step': step, 'p50_at': at,
                            'n': n} for what, step, at, n in
                           (attribution or ())],
                       'sizes_gib': list(SIZES), 'rounds': args.rounds,
                       'interval_s': args.interval,
                       'load_average': loads, 'cores': os.cpu_count()},
                      f, indent=1)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
