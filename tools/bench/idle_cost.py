"""What an idle tether costs: the CPU time of each of its processes over
a minute with no request, as a percentage of one core.

By default it starts a tether-aio (``--api-workers`` as given, its own
default otherwise) and reports its main process and each API worker (not
the Glance it starts, which is not tether). With ``--deployment`` (as
root, after ``tools/install-deps.sh integration``) it starts the
integration deployment instead and reports each tether daemon: both
APIs (gunicorn master and workers) and both managers.

Each process is measured from ``/proc/<pid>/stat`` (user plus system
time) after ``--settle`` seconds from the moment the service says it is
ready, over ``--seconds``. It measures; it asserts nothing.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import aio_process  # noqa: E402

TICKS = os.sysconf('SC_CLK_TCK')


def cpu_seconds(pid):
    """User plus system CPU time of ``pid`` so far, or None if gone."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
    except OSError:
        return None
    # After the command: the state is field 3, utime 14 and stime 15.
    return (int(fields[11]) + int(fields[12])) / TICKS


def measure(pids, seconds):
    """name -> % of a core over ``seconds`` (None: the process ended)."""
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    start = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - start
    result = {}
    for name, pid in pids.items():
        after = cpu_seconds(pid)
        if before[name] is None or after is None:
            result[name] = None
        else:
            result[name] = 100.0 * (after - before[name]) / elapsed
    return result


def aio_pids(aio):
    pids = {'tether-aio main': aio.proc.pid}
    for i, pid in enumerate(aio_process.children(aio.proc.pid,
                                                 'aio_worker')):
        pids['tether-aio API worker %d' % (i + 1)] = pid
    return pids


def deployment_pids(dep):
    pids = {}
    for name, api in (('tether-volume-api', dep.volume_api),
                      ('tether-compute-api', dep.compute_api)):
        pids['%s master' % name] = api.process.pid
        for i, pid in enumerate(api.workers()):
            pids['%s worker %d' % (name, i + 1)] = pid
    pids['tether-volume'] = dep.volume_manager.process.pid
    pids['tether-compute'] = dep.compute_manager.process.pid
    return pids


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--seconds', type=float, default=60)
    p.add_argument('--settle', type=float, default=10,
                   help='Seconds to wait after the start before measuring.')
    p.add_argument('--api-workers', type=int,
                   help="tether-aio's --api-workers (its default if not "
                        'given); with --deployment, gunicorn workers per '
                        'API (2 if not given).')
    p.add_argument('--deployment', action='store_true')
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.deployment:
        sys.path.insert(0, os.path.join(ROOT, 'tools'))
        from integration import deployment
        server = deployment.Deployment(
            api_workers=args.api_workers or 2, manila=False)
        server.start()
        pids = deployment_pids(server)
    else:
        extra = ([] if args.api_workers is None
                 else ['--api-workers', str(args.api_workers)])
        server = aio_process.Aio(None, extra_args=extra)
        pids = aio_pids(server)
    try:
        time.sleep(args.settle)
        load = os.getloadavg()[0]
        result = measure(pids, args.seconds)
        print('idle CPU over %.0f s (load average %.2f before, %.2f after)'
              % (args.seconds, load, os.getloadavg()[0]))
        for name, pct in result.items():
            print('%-34s %s' % (name, 'gone' if pct is None
                                else '%6.2f %% of a core' % pct))
    finally:
        server.stop()
        if not args.deployment:
            server.cleanup()
    return 0


if __name__ == '__main__':
    sys.exit(main())
