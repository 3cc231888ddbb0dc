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

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import aio_log  # noqa: E402
import aio_process  # noqa: E402
import compute_ops  # noqa: E402
from extend_attribution import (  # noqa: E402
    MARKERS, attribute, attribution_table)
from extend_rounds import SIZES, Bare, ExtendTether  # noqa: E402
import libvirt  # noqa: E402
import libvirt_ops  # noqa: E402

# The attribution reads these loggers' DEBUG lines in tether-aio's log:
# the start and end (with the duration) of each qemu-img command, and the
# response line of each HTTP request tether makes (the event, the compute's
# GET of the volume, the completion).
DEBUG_LOGGERS = ('oslo_concurrency.processutils', 'tether.drivers.qemu_img',
                 'urllib3.connectionpool')
LOG_CONFIG = 'default_log_levels = %s\n' % aio_log.debug_log_levels(
    DEBUG_LOGGERS)

TETHER_ROWS = (
    ('show: GET to 200 (before)', 'show'),
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
                          ('show', 'post_202', 'extend') +
                          tuple('extend_%d' % k for k in SIZES)},
               'bare': {key: [] for _label, b, d in BARE_ROWS
                        for key in (b, d)}}
    marks = []
    aio = tether = None
    attribution = found = None
    problems = []
    try:
        print('starting tether-aio ...', flush=True)
        aio = aio_log.start_aio(
            args.state_dir, '' if args.no_attribution else LOG_CONFIG)
        print('tether-aio pid %d: volume %s, compute %s (state %s)'
              % (aio.proc.pid, aio.volume_url, aio.compute_url,
                 aio.state_dir), flush=True)
        project = 'bench-' + uuid.uuid4().hex[:8]
        tether = ExtendTether(aio_process.connect(aio, project), project,
                              aio.volume_url, args.interval, args.timeout)
        measure(args, tether, bare, results, marks)
    except BaseException as exc:
        aio_log.report_failure(aio, exc)
        raise
    finally:
        aio_log.begin_cleanup()
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
