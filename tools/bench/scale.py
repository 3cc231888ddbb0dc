#!/usr/bin/env python3
"""How tether's API costs grow with the cloud (see README.rst here).

It starts a tether-aio (aio_process.py, noauth) on a temporary state
directory, grows its databases step by step and, at each size, measures
p50/p99 latency and req/s at concurrency 1 of:

* volume list:   GET /v3/{project}/volumes/detail?limit=100, walking the
                 pages by marker from the middle of the project
* volume show:   GET /v3/{project}/volumes/{id}
* all_tenants:   the same list as admin with all_tenants=1, across the
                 projects
* attachments:   GET /v3/{project}/attachments?limit=100 (3.27), walking,
                 and the same as admin with all_tenants=1
* server list:   GET /v2.1/servers?limit=100, the first page again and
                 again (Nova's anchor)
* server detail: GET /v2.1/servers/detail?limit=100, the same
* server show:   GET /v2.1/servers/{id}
* events:        POST /v2.1/os-server-external-events, one
                 network-changed event of one server a request (admin)

then prints one table per workload and the ratio of the largest size's
p50 to the smallest's (a flat curve is near 1), and tether's req/s
against Nova's anchors (shared/reference/performance-anchors.md).

The rows are inserted straight into the aio's SQLite databases
(scale_seed.py), tens of thousands a second; no volume file and no guest
exists. Why the aio leaves them alone:

* volumes are ``available``, attached ones ``in-use`` with an
  ``attached`` attachment, on the aio's backend (host, type and zone
  copied from a volume the aio made). The volume manager's start-up
  reconciliation and its periodic tasks look only at volumes that are
  ``creating``, ``deleting``, ``uploading``, ``extending`` or being
  re-imaged and at attachments ``attaching`` or being deleted; the
  capacity report sums the sizes. The aio's quota usage does not count
  the seeded volumes (its quotas are unlimited).
* servers are ``active`` on the aio's compute host, inserted after the
  aio said it was ready: the compute service's start-up recovery
  (tether.compute.ops.recovery), which would put an ACTIVE server
  without a guest in ERROR, has run by then, and no periodic task
  compares servers with libvirt. network-changed needs nothing of
  tether beyond finding the server, so events send no RPC to a guest
  that does not exist.

Requests and responses are real HTTP/1.1 (http.client, one persistent
connection), on the same 2-core machine as the server. It measures and
asserts nothing about speed; it exits 1 if a request failed.
"""

import argparse
import json
import os
import sys
import time
import urllib.parse

import aio_process
import scale_seed
import volume_load

MAIN, ATTACH, SERVERS = 'scale-main', 'scale-attach', 'scale-servers'
OTHERS = ['scale-other-%d' % i for i in range(4)]
ADMIN_TOKEN = 'admin:admin'
# Nova 34 on this machine kind, concurrency 1, 1,000 instances.
NOVA_ANCHORS = {'server list': 12.4, 'events': 59.0}
QUICK = {'sizes': '100,1000', 'server_sizes': '10,100',
         'attachment_sizes': '100,1000', 'requests': 50}


class Api(volume_load.Client):
    """A persistent HTTP/1.1 connection to one API, as one token."""

    def __init__(self, root, prefix, token, version=None):
        super().__init__(root, volume_load.Project('scale', token=token))
        self.prefix = prefix
        if version:
            for headers in (self.headers, self.post_headers):
                headers['OpenStack-API-Version'] = version


def walker(api, first, links_key, start_marker=None):
    """One page a call, following the next link; at the end the walk
    starts again at the first page."""
    marker_path = '%s&marker=%%s' % first
    state = {'path': marker_path % start_marker if start_marker else first}
    key = b'"%s"' % links_key.encode()

    def one():
        status, body = api.request('GET', state['path'])
        at = body.rfind(key)
        match = volume_load.NEXT_MARKER.search(body, at) if at >= 0 else None
        state['path'] = (marker_path % match.group(1).decode() if match
                         and status == 200 else first)
        return status
    return one


def cycler(api, paths):
    state = {'i': 0}

    def one():
        state['i'] += 7919
        return api.request('GET', paths[state['i'] % len(paths)])[0]
    return one


def poster(api, path, bodies):
    state = {'i': 0}

    def one():
        state['i'] += 7919
        return api.request('POST', path,
                           bodies[state['i'] % len(bodies)])[0]
    return one


def measure(one, requests, warmup, expected=(200,)):
    for _ in range(warmup):
        one()
    clock = time.perf_counter
    latencies, errors = [], 0
    begin = clock()
    for _ in range(requests):
        t0 = clock()
        status = one()
        latencies.append(clock() - t0)
        errors += status not in expected
    elapsed = clock() - begin
    latencies.sort()
    return {'p50_ms': volume_load.percentile(latencies, 50) * 1000,
            'p99_ms': volume_load.percentile(latencies, 99) * 1000,
            'rps': len(latencies) / elapsed, 'errors': errors,
            'requests': len(latencies)}


# The steps ---------------------------------------------------------------

class Cloud:
    """The aio, its clients and its seeders."""

    def __init__(self, aio):
        self.aio = aio
        parts = urllib.parse.urlsplit(aio.volume_url)
        root = '%s://%s' % (parts.scheme, parts.netloc)
        croot = urllib.parse.urlsplit(aio.compute_url)
        self.croot = '%s://%s' % (croot.scheme, croot.netloc)
        self.cprefix = croot.path.rstrip('/')
        self.member = Api(root, '/v3/' + MAIN, 'scale:' + MAIN)
        self.admin = Api(root, '/v3/admin', ADMIN_TOKEN)
        self.attach = Api(root, '/v3/' + ATTACH, 'scale:' + ATTACH,
                          'volume 3.27')
        self.attach_admin = Api(root, '/v3/admin', ADMIN_TOKEN,
                                'volume 3.27')
        self.servers = Api(self.croot, self.cprefix, 'scale:' + SERVERS)
        self.events = Api(self.croot, self.cprefix, ADMIN_TOKEN)
        template = self._template_volume()
        state = aio.state_dir
        self.volumes = scale_seed.VolumeSeeder(
            os.path.join(state, 'tether.sqlite'), template, MAIN, OTHERS)
        self.server_seeder = scale_seed.ServerSeeder(
            os.path.join(state, 'compute.sqlite'), SERVERS, 'scale')

    def _template_volume(self):
        """A volume the aio makes itself: the seeded ones copy its
        backend, type and zone."""
        status, body = self.member.request(
            'POST', '/volumes', json.dumps({'volume': {'size': 1}}).encode())
        if status != 202:
            raise SystemExit('cannot create a volume: %s %r'
                             % (status, body[:300]))
        volume_id = json.loads(body)['volume']['id']

        def available():
            status, body = self.member.request('GET',
                                               '/volumes/' + volume_id)
            state = json.loads(body)['volume']['status']
            if state == 'error':
                raise SystemExit('the template volume went to error')
            return state == 'available'
        aio_process.wait_for(available, 0.1, 120, 'the template volume')
        return volume_id


def volume_steps(cloud, sizes, args, report):
    ids = []
    for size in sizes:
        t0 = time.monotonic()
        ids += cloud.volumes.grow_to(size)
        print('%d volumes in %s (and %d in %d other projects) in %.1fs'
              % (size, MAIN, size, len(OTHERS), time.monotonic() - t0),
              flush=True)
        middle = ids[len(ids) // 2]
        report('volume list', size, walker(
            cloud.member, '/volumes/detail?limit=100', 'volumes_links',
            middle))
        report('volume show', size, cycler(
            cloud.member, ['/volumes/' + i for i in ids]))
        report('all_tenants list', size * 2, walker(
            cloud.admin, '/volumes/detail?all_tenants=1&limit=100',
            'volumes_links', middle))


def attachment_steps(cloud, sizes, args, report):
    for size in sizes:
        t0 = time.monotonic()
        cloud.volumes.attach_to(size, ATTACH, cloud.server_seeder.host)
        print('%d attachments in %s in %.1fs'
              % (size, ATTACH, time.monotonic() - t0), flush=True)
        report('attachments list', size, walker(
            cloud.attach, '/attachments?limit=100', 'attachments_links'))
        report('attachments all', size, walker(
            cloud.attach_admin, '/attachments?all_tenants=1&limit=100',
            'attachments_links'))


def server_steps(cloud, sizes, args, report):
    ids = []
    for size in sizes:
        t0 = time.monotonic()
        ids += cloud.server_seeder.grow_to(size)
        print('%d servers in %s in %.1fs'
              % (size, SERVERS, time.monotonic() - t0), flush=True)
        # The anchor's request, without a marker. (A walk of 100 servers
        # would read a full page, then an empty one after it.)
        report('server list', size, cycler(
            cloud.servers, ['/servers?limit=100']))
        report('server detail', size, cycler(
            cloud.servers, ['/servers/detail?limit=100']))
        report('server show', size, cycler(
            cloud.servers, ['/servers/' + i for i in ids]))
        bodies = [json.dumps({'events': [{
            'name': 'network-changed', 'server_uuid': i,
            'tag': scale_seed.seeded_uuid('port', n)}]}).encode()
            for n, i in enumerate(ids)]
        report('events', size, poster(
            cloud.events, '/os-server-external-events', bodies))


# Output ------------------------------------------------------------------

def print_tables(rows):
    by_workload = {}
    for row in rows:
        by_workload.setdefault(row['workload'], []).append(row)
    for workload, runs in by_workload.items():
        print()
        print(workload)
        print('  %9s %9s %9s %9s %s' % ('size', 'p50 ms', 'p99 ms',
                                        'req/s', 'errors'))
        for r in runs:
            print('  %9d %9.2f %9.2f %9.1f %d of %d' % (
                r['size'], r['p50_ms'], r['p99_ms'], r['rps'], r['errors'],
                r['requests']))
        if len(runs) > 1:
            print('  p50 at %d / p50 at %d: %.2f' % (
                runs[-1]['size'], runs[0]['size'],
                runs[-1]['p50_ms'] / runs[0]['p50_ms']))
    print()
    for workload, nova in NOVA_ANCHORS.items():
        runs = [r for r in by_workload.get(workload, ())
                if r['size'] == 1000]
        if runs:
            rps = runs[0]['rps']
            print('%s at 1,000 servers: tether %.1f req/s, Nova %.1f: '
                  '%.1fx' % (workload, rps, nova, rps / nova))


def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument('--sizes', default='1000,10000,100000',
                   help='Volumes in the main project at each step (as '
                        'many again in the other projects).')
    p.add_argument('--server-sizes', default='100,1000',
                   help='Servers at each step.')
    p.add_argument('--attachment-sizes', default='1000,10000',
                   help='Attachments at each step.')
    p.add_argument('--requests', type=int, default=500,
                   help='Measured requests of each workload at each size.')
    p.add_argument('--warmup', type=int, default=10,
                   help='Unmeasured requests before each measurement.')
    p.add_argument('--quick', action='store_true',
                   help='Small sizes and 50 requests (%s).' % ', '.join(
                       '%s %s' % kv for kv in QUICK.items()))
    p.add_argument('--only', default='volumes,attachments,servers',
                   help='Which steps to run.')
    p.add_argument('--json', metavar='PATH',
                   help='Also write every row as JSON to PATH.')
    args = p.parse_args(argv)
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
    for key in ('sizes', 'server_sizes', 'attachment_sizes'):
        setattr(args, key, sorted(int(s) for s in
                                  str(getattr(args, key)).split(',') if s))
    args.only = args.only.split(',')
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    print('starting tether-aio ...', flush=True)
    aio = aio_process.Aio(None)
    rows = []

    def report(workload, size, one, expected=(200,)):
        row = dict(measure(one, args.requests, args.warmup, expected),
                   workload=workload, size=size)
        rows.append(row)
        print('  %-17s %7d  p50 %7.2f ms  p99 %7.2f ms  %7.1f req/s%s' % (
            workload, size, row['p50_ms'], row['p99_ms'], row['rps'],
            '  %d errors' % row['errors'] if row['errors'] else ''),
            flush=True)

    try:
        cloud = Cloud(aio)
        steps = {'volumes': (volume_steps, args.sizes),
                 'attachments': (attachment_steps, args.attachment_sizes),
                 'servers': (server_steps, args.server_sizes)}
        for name in args.only:
            step, sizes = steps[name]
            # Servers name the volumes of the attachments they boot from.
            if name == 'servers' and 'attachments' not in args.only:
                cloud.volumes.attach_to(max(sizes), ATTACH,
                                        cloud.server_seeder.host)
            step(cloud, sizes, args, report)
    except BaseException:
        print(aio_process.log_tail(aio.log_path), file=sys.stderr)
        raise
    finally:
        aio.stop()
        aio.cleanup()
    print_tables(rows)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'rows': rows, 'nova_anchors': NOVA_ANCHORS,
                       'args': {k: v for k, v in vars(args).items()
                                if k != 'json'}}, f, indent=1)
    return 1 if any(r['errors'] for r in rows) else 0


if __name__ == '__main__':
    sys.exit(main())
