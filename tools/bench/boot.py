#!/usr/bin/env python3
"""Boot from volume to ACTIVE against a bare libvirt define + start of the
same domain, one at a time and ten at once (issue #16).

Against a tether-aio over HTTP with openstacksdk:

* single: N rounds (default 5) of POST /servers booting from an existing
  1 GiB volume (block_device_mapping_v2: source and destination
  "volume", boot_index 0; flavor '1', m1.nano; networks "none") until
  GET /servers/{id} says ACTIVE, polled every 20 ms (--interval). Then
  the domain XML tether gave libvirt is read back (the inactive XML), the
  server deleted, and a copy of that XML, under another name and UUID on
  a sparse copy of the volume's file, is defined and started with
  libvirt-python ("bare" define+start), timed, and removed.
* concurrent: --concurrency (default 10) volumes made beforehand, one
  POST /servers each from a thread of its own, released together; one
  poller lists the servers (GET /servers/detail every --interval) until
  all are ACTIVE. The wall time runs from the first POST to the last
  ACTIVE seen. Then the same number of bare define+start of copies of
  their domains, from parallel threads, each on a libvirt connection of
  its own (as tether's driver has one per thread).

The volumes hold no OS: define+start returns once QEMU runs, whatever the
guest then does, so an OS would change neither side's figure (and the
tiny guest image would have to be copied into every volume first).

It prints p50/min/max of each side, the overhead (tether p50 - bare p50)
and the ratio (aim: 1.5x), the concurrent wall times, the load average
before and after, and where the time of each boot goes, from tether-aio's
log (the HTTP calls the compute API and manager make to the volume API,
logged by urllib3 at DEBUG, and the driver's define and start).

    python3 tools/bench/boot.py [-n 5] [--concurrency 10] [--json PATH]

Needs root and libvirt, as compute_ops.py, whose tether-aio, polling and
figures it reuses. At the end, after an error, a Ctrl-C or a SIGTERM, it
deletes every server and volume it made, stops tether-aio, removes its
own domains (tether-boot-bench-<pid>-*, by UUID) and their files, and any
guest of its servers tether left. It measures; it asserts nothing.
"""

import json
import os
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
import boot_attribution  # noqa: E402
from boot_bare import Bare  # noqa: E402
from boot_tether import BootTether  # noqa: E402
import compute_ops  # noqa: E402
import libvirt_ops  # noqa: E402

LOG_CONFIG = 'default_log_levels = %s\n' % aio_log.debug_log_levels(
    boot_attribution.DEBUG_LOGGERS)


def _interrupt(signum, _frame):
    raise KeyboardInterrupt('signal %d' % signum)


def _ms(values):
    return ', '.join('%.0f' % (v * 1000) for v in values)


def single(args, tether, bare, volume, results):
    """One unmeasured round, then the measured ones, each side in turn."""
    for i in range(args.rounds + 1):
        boot = tether.boot(volume, 'bench-boot-%d' % i)
        boot['attachment'] = tether.attachment_of(volume)
        xml = bare.copy(boot['server'])
        tether.delete_servers([boot['server']])
        tether.wait_available([volume])
        seconds, dom = bare.define_start(xml)
        bare.destroy([dom])
        if i == 0:
            continue        # warm-up: the first requests import, connect
        results['single'].append(boot)
        results['bare'].append(seconds)
        print('round %d: boot to ACTIVE %.0f ms (202 after %.0f ms); bare '
              'define+start %.0f ms; load %s' % (
                  i, boot['active'] * 1000, boot['post'] * 1000,
                  seconds * 1000, compute_ops.load_average().split()[0]),
              flush=True)


def concurrent(args, tether, bare, volumes, results):
    for r in range(args.concurrent_rounds):
        wall, boots = tether.boot_many(volumes, 'bench-many-%d' % r)
        xmls = []
        for boot in boots:
            boot['attachment'] = tether.attachment_of(boot['volume'])
            xmls.append(bare.copy(boot['server']))
        tether.delete_servers([b['server'] for b in boots])
        tether.wait_available(volumes)
        bare_wall, each, doms = bare.parallel(xmls)
        bare.destroy(doms)
        results['concurrent'].append({'wall': wall, 'boots': boots,
                                      'bare_wall': bare_wall,
                                      'bare_each': each})
        print('%d at once: all ACTIVE after %.0f ms (each %s ms); bare '
              '%d define+start in parallel %.0f ms (each %s); load %s' % (
                  len(volumes), wall * 1000,
                  _ms(sorted(b['active'] for b in boots)), len(xmls),
                  bare_wall * 1000, _ms(sorted(each)),
                  compute_ops.load_average().split()[0]), flush=True)


def parse_args(argv):
    p = compute_ops.argument_parser('Measured rounds of the single boot.')
    p.description = __doc__.split('\n\n')[0]
    p.set_defaults(rounds=5)
    p.add_argument('--concurrency', type=int, default=10,
                   help='Servers booted at once.')
    p.add_argument('--concurrent-rounds', type=int, default=1,
                   help='Rounds of the concurrent boot (0: none).')
    return compute_ops.checked_args(p, argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _interrupt)
    subprocess.run([os.path.join(ROOT, 'tools', 'start-libvirt.sh')],
                   check=True)
    loads = {'start': compute_ops.load_average()}
    print('load average at the start: %s' % loads['start'], flush=True)
    workdir = tempfile.mkdtemp(prefix='tether-boot-bench-')
    os.chmod(workdir, 0o755)   # QEMU runs as libvirt-qemu
    drv = libvirt_ops.libvirt_driver.LibvirtDriver(libvirt_ops.Conf(),
                                                   'bench')
    lconn = drv.host.get_connection()
    bare = Bare(lconn, workdir)
    results = {'single': [], 'bare': [], 'concurrent': []}
    aio = tether = None
    problems = []
    found = None
    try:
        print('starting tether-aio ...', flush=True)
        aio = aio_log.start_aio(args.state_dir, LOG_CONFIG)
        print('tether-aio pid %d: volume %s, compute %s (state %s)'
              % (aio.proc.pid, aio.volume_url, aio.compute_url,
                 aio.state_dir), flush=True)
        project = 'bench-' + uuid.uuid4().hex[:8]
        tether = BootTether(aio_process.connect(aio, project),
                            args.interval, args.timeout,
                            lambda: aio_process.connect(aio, project))
        count = max(1, args.concurrency)
        volumes = [tether.new_volume('bench-boot-%d' % i)
                   for i in range(count)]
        single(args, tether, bare, volumes[0], results)
        if args.concurrency > 0:
            concurrent(args, tether, bare, volumes, results)
    except BaseException as exc:
        aio_log.report_failure(aio, exc)
        raise
    finally:
        aio_log.begin_cleanup()
        if tether is not None:
            problems += tether.cleanup()
        if aio is not None:
            aio.stop()
        problems += bare.remove()
        stray = compute_ops.remove_guests(lconn,
                                          tether.made if tether else ())
        if stray:
            problems.append('guests tether left behind, removed: %s'
                            % ', '.join(stray))
        if aio is not None:
            try:
                found = boot_attribution.attribute(aio.log_path, results)
            except (OSError, ValueError) as exc:
                problems.append('could not read tether-aio\'s log: %s'
                                % exc)
            aio.cleanup()
        for problem in problems:
            print('cleanup: %s' % problem, file=sys.stderr)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    loads['end'] = compute_ops.load_average()
    lib, hv = drv.host.versions()
    print('libvirt %s, QEMU %s, TCG; %d cores' % (
        '.'.join(map(str, lib)), '.'.join(map(str, hv)), os.cpu_count()))
    figs = boot_attribution.print_figures(results, found, args, loads)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'figures_ms': figs, 'results': results,
                       'log_offsets_s': found, 'rounds': args.rounds,
                       'concurrency': args.concurrency,
                       'interval_s': args.interval, 'load_average': loads,
                       'cores': os.cpu_count()}, f, indent=1)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
