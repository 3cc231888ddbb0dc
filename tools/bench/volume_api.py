#!/usr/bin/env python3
"""Load generator for the volume API of tether-aio (see README.rst here).

Measures requests per second and p50/p99 latency at several concurrencies
for the workloads of shared/reference/performance-anchors.md:

* create:   POST /v3/{project}/volumes {"volume": {"size": 1}}
* show:     GET  /v3/{project}/volumes/{id}
* list:     GET  /v3/{project}/volumes/detail?limit=100, walking markers
            over a project of 1,000 volumes
* notfound: GET  /v3/{project}/volumes/{unknown id} (404 expected)
* attach:   one attachment's full cycle, as a consumer makes it: POST
            /attachments, PUT (connector), os-complete, DELETE, on a volume
            of the thread's own; a "request" is the whole cycle
* reset-attach: the anchor's attach cycle, as the project's administrator:
            os-reset_status to available, POST /attachments (no
            connector), DELETE, on a volume of the thread's own

and the peak RSS (VmHWM) of the server process. By default it starts its
own tether-aio on a temporary state directory and a free port, with
unlimited quotas; --url targets one that is already running; --deployment
starts the integration deployment instead (tools/integration/: RabbitMQ,
PostgreSQL, Keystone, the volume API under gunicorn with --api-workers
workers, tether-volume as a process of its own) and runs the same workloads
there, with Keystone tokens.
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
import uuid

import aio_process
from deployment_server import DeploymentServer
import import_floor
from process_memory import memory_of, print_memory
from volume_load import (
    FACTORIES, Project, make_volumes, percentile, run_once, wait_settled)

WORKLOADS = ('create', 'show', 'list', 'notfound', 'attach', 'reset-attach')
DEFAULT_REQUESTS = {'create': 100, 'show': 500, 'list': 200,
                    'notfound': 500, 'attach': 100, 'reset-attach': 100}
EXPECTED_STATUS = {'create': (202,), 'show': (200,), 'list': (200,),
                   'notfound': (404,), 'attach': (200,),
                   'reset-attach': (200,)}
# The project of each workload's requests (the others: the list project).
TARGETS = {'create': 'create', 'attach': 'attach',
           'reset-attach': 'reset-attach'}
READY = re.compile(r'tether ready: volume=(\S+)')

SERVER_CONFIG = """\
[DEFAULT]
# The create workload makes thousands of volumes in one project.
quota_volumes = -1
quota_gigabytes = -1
"""


# The server -----------------------------------------------------------------

class OwnServer:
    """A tether-aio subprocess on a temporary state dir and a free port."""

    def __init__(self, state_dir, extra_args, timeout=120):
        self.tmp = None
        if state_dir is None:
            self.tmp = tempfile.mkdtemp(prefix='tether-bench-')
            state_dir = self.tmp
        self.state_dir = state_dir
        os.makedirs(state_dir, exist_ok=True)
        self.config = os.path.join(state_dir, 'bench.conf')
        with open(self.config, 'w') as f:
            f.write(SERVER_CONFIG)
        self.log_path = os.path.join(state_dir, 'tether-aio.log')
        self.log = open(self.log_path, 'w')
        cmd = [sys.executable, '-c',
               'import sys; from tether.cmd.aio import main; '
               'sys.exit(main())',
               '--config-file', self.config, '--state-dir', state_dir,
               '--volume-port', '0', '--image-port', '0'] + list(extra_args)
        self.proc = subprocess.Popen(cmd, stdout=self.log,
                                     stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        self.pid = self.proc.pid
        self.url = self._wait_ready(timeout)

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                match = READY.search(f.read())
            if match:
                return match.group(1).rsplit('/v3', 1)[0]
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        with open(self.log_path) as f:
            tail = f.read()[-3000:]
        raise SystemExit('tether-aio did not become ready; its log ends:\n'
                         + tail)

    def pids(self):
        """The main process and its API workers (--api-workers)."""
        pids = {'tether-aio main': self.pid}
        workers = aio_process.children(self.pid, 'aio_worker')
        for i, pid in enumerate(workers):
            pids['tether-aio API worker %d' % (i + 1)] = pid
        return pids

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def cleanup(self):
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)


# Main -----------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument('--url',
                   help='Volume API root of a running tether (for example '
                        'http://127.0.0.1:8776); its quotas must allow the '
                        'create workload. Default: start a tether-aio.')
    p.add_argument('--pid', type=int,
                   help='With --url: the server process, for its peak RSS.')
    p.add_argument('--deployment', action='store_true',
                   help='Start the integration deployment (RabbitMQ, '
                        'PostgreSQL, Keystone, separate daemons; as root) '
                        'instead of a tether-aio, and measure its volume '
                        'API.')
    p.add_argument('--api-workers', type=int, default=2,
                   help='With --deployment: gunicorn workers of the volume '
                        'API.')
    p.add_argument('--workloads', default=','.join(WORKLOADS),
                   help='Comma-separated subset of %s.' % ', '.join(WORKLOADS))
    p.add_argument('--concurrency', default='1,8',
                   help='Comma-separated numbers of client threads.')
    p.add_argument('--requests', type=int,
                   help='Requests per run for every workload (default: '
                        + ', '.join('%s %d' % kv
                                    for kv in DEFAULT_REQUESTS.items())
                        + ').')
    p.add_argument('--duration', type=float,
                   help='Seconds per run instead of a fixed request count.')
    p.add_argument('--repeat', type=int, default=3,
                   help='Runs of each workload and concurrency; the table '
                        'shows the median.')
    p.add_argument('--list-volumes', type=int, default=1000,
                   help='Volumes in the project that the list and show '
                        'workloads read.')
    p.add_argument('--limit', type=int, default=100,
                   help='Page size of the list workload.')
    p.add_argument('--warmup', type=int, default=20,
                   help='Unmeasured requests before each workload.')
    p.add_argument('--microversion',
                   help='OpenStack-API-Version to send (default: none, '
                        'i.e. 3.0).')
    p.add_argument('--state-dir',
                   help='State directory of the tether-aio started here '
                        '(default: a temporary one, removed afterwards).')
    p.add_argument('--server-arg', action='append', default=[],
                   help='Extra argument for that tether-aio (repeatable).')
    p.add_argument('--json', metavar='PATH',
                   help='Also write the results as JSON to PATH.')
    p.add_argument('--import-floor', action='store_true',
                   help='At the end, what the modules each API worker '
                        'loaded cost a fresh Python, with tether\'s and '
                        'without (import_floor.py). Not with --url.')
    args = p.parse_args(argv)
    if args.import_floor and args.url:
        p.error('--import-floor needs a server started here')
    args.workloads = [w.strip() for w in args.workloads.split(',') if w]
    unknown = set(args.workloads) - set(WORKLOADS)
    if unknown:
        p.error('unknown workloads: %s' % ', '.join(sorted(unknown)))
    args.concurrency = [int(c) for c in args.concurrency.split(',') if c]
    if any(c < 1 for c in args.concurrency) or args.repeat < 1:
        p.error('concurrency and repeat must be at least 1')
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    server = None
    pids = {}
    recorder = import_floor.ModuleRecorder() if args.import_floor else None
    floors = {}
    if args.url:
        base_url = args.url.rstrip('/')
        if args.pid:
            pids['server'] = args.pid
        if base_url.endswith('/v3'):
            base_url = base_url[:-3]
    elif args.deployment:
        print('starting the integration deployment ...', flush=True)
        server = DeploymentServer(args.api_workers)
        base_url = server.url
        print('deployment in %s: volume API at %s (%d gunicorn workers)'
              % (server.deployment.dir, base_url, args.api_workers),
              flush=True)
    else:
        print('starting tether-aio ...', flush=True)
        server = OwnServer(args.state_dir, args.server_arg)
        base_url = server.url
        pids.update(server.pids())
        print('tether-aio pid %d at %s (state %s)'
              % (server.pid, base_url, server.state_dir), flush=True)
        print_memory({name: memory_of(pid) for name, pid in pids.items()},
                     'after its start')
    run_tag = uuid.uuid4().hex[:8]
    projects = {}

    def project(kind):
        """The bench project of a kind (list, create, attach,
        reset-attach: its user an administrator, for os-reset_status)."""
        if kind not in projects:
            name = 'bench-%s-%s' % (kind, run_tag)
            role = 'admin' if kind == 'reset-attach' else 'member'
            if args.deployment:
                projects[kind] = server.project(name, role=role)
            else:
                # noauth: the user named admin has the admin role.
                projects[kind] = Project(
                    name, token='%s:%s' % (role == 'admin' and 'admin'
                                           or 'bench', name))
        return projects[kind]

    ctx = {'limit': args.limit}
    rows = []
    memory = {}
    try:
        if {'list', 'show'} & set(args.workloads):
            t0 = time.monotonic()
            ctx['show_ids'] = make_volumes(base_url, project('list'),
                                           args.list_volumes)
            wait_settled(base_url, project('list'))
            print('made %d volumes in %s in %.1fs'
                  % (args.list_volumes, project('list'),
                     time.monotonic() - t0), flush=True)
        if 'attach' in args.workloads:
            # One volume per client thread: a volume takes one attachment.
            ctx['attach_volumes'] = make_volumes(
                base_url, project('attach'), max(args.concurrency))
            wait_settled(base_url, project('attach'))
        if 'reset-attach' in args.workloads:
            ctx['reset_volumes'] = make_volumes(
                base_url, project('reset-attach'), max(args.concurrency))
            wait_settled(base_url, project('reset-attach'))
        for workload in args.workloads:
            target = project(TARGETS.get(workload, 'list'))
            factory = FACTORIES[workload](ctx)
            expected = EXPECTED_STATUS[workload]
            count = args.requests or DEFAULT_REQUESTS[workload]
            if args.warmup:
                run_once(base_url, target, factory, 1, args.warmup, None,
                         expected, args.microversion)
            for conc in args.concurrency:
                reps = []
                if args.deployment:
                    before = server.database_counters()
                for _ in range(args.repeat):
                    if workload == 'create':
                        wait_settled(base_url, target)
                    rate, lat, errors, total = run_once(
                        base_url, target, factory, conc, count,
                        args.duration, expected, args.microversion)
                    reps.append({'rps': rate,
                                 'p50_ms': percentile(lat, 50) * 1000,
                                 'p99_ms': percentile(lat, 99) * 1000,
                                 'errors': errors, 'requests': total})
                row = {
                    'workload': workload, 'concurrency': conc,
                    'rps': statistics.median(r['rps'] for r in reps),
                    'rps_min': min(r['rps'] for r in reps),
                    'rps_max': max(r['rps'] for r in reps),
                    'p50_ms': statistics.median(r['p50_ms'] for r in reps),
                    'p99_ms': statistics.median(r['p99_ms'] for r in reps),
                    'errors': sum(r['errors'] for r in reps),
                    'requests': sum(r['requests'] for r in reps),
                    'runs': reps,
                }
                if args.deployment:
                    after = server.database_counters()
                    requests = row['requests'] or 1
                    row['db_transactions_per_request'] = (
                        (after[0] - before[0]) / requests)
                    row['db_sessions_per_request'] = (
                        (after[1] - before[1]) / requests)
                rows.append(row)
                print_row(row, header=len(rows) == 1)
            if workload == 'create':
                wait_settled(base_url, target)
        if args.deployment:
            pids = server.pids()
        memory = {name: memory_of(pid) for name, pid in pids.items()}
        if recorder is not None:
            workers = {pid: name for name, pid in pids.items()
                       if 'worker' in name}
            for pid, names in recorder.modules(list(workers)).items():
                floors[workers[pid]] = import_floor.floor(names)
    finally:
        if server is not None:
            server.stop()
            server.cleanup()
        if recorder is not None:
            recorder.cleanup()
    print()
    if not memory:
        print('server peak RSS: unknown (pass --pid with --url)')
    print_memory(memory, 'at the end')
    import_floor.print_floors(floors)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'rows': rows,
                       'peak_rss_kib': {name: v[0] if v else None
                                        for name, v in memory.items()},
                       'import_floor': floors,
                       'args': {k: v for k, v in vars(args).items()
                                if k != 'json'}}, f, indent=1)
    return 1 if any(r['errors'] for r in rows) else 0


def print_row(row, header=False):
    if header:
        print()
        print('%-12s %4s %22s %9s %9s %s' % (
            'workload', 'conc', 'req/s median (min-max)', 'p50 ms',
            'p99 ms', 'errors'))
    rps = '%.1f (%.1f-%.1f)' % (row['rps'], row['rps_min'], row['rps_max'])
    database = ''
    if 'db_transactions_per_request' in row:
        # The deployment's: what each request (a cycle, for attach and
        # reset-attach) cost PostgreSQL, tether-volume's share included.
        database = '   db: %.1f transactions, %.2f new connections each' % (
            row['db_transactions_per_request'],
            row['db_sessions_per_request'])
    print('%-12s %4d %22s %9.2f %9.2f %d of %d%s' % (
        row['workload'], row['concurrency'], rps, row['p50_ms'],
        row['p99_ms'], row['errors'], row['requests'], database),
        flush=True)


if __name__ == '__main__':
    sys.exit(main())
