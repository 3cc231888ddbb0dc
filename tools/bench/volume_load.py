"""The load of volume_api.py on the volume API: one HTTP/1.1 client per
connection, the volumes the workloads read, the workloads, and one
measured run of a workload at a concurrency."""

import http.client
import json
import math
import re
import threading
import time
import urllib.parse
import uuid

# os-complete needs 3.44.
ATTACH_MICROVERSION = '3.44'
ATTACH_CONNECTOR = {'host': 'bench-compute', 'initiator': 'iqn.bench',
                    'mountpoint': '/dev/vdb'}
CREATE_BODY = json.dumps({'volume': {'size': 1}}).encode()
NEXT_MARKER = re.compile(rb'[?&]marker=([^&"\s]+)')


# HTTP -----------------------------------------------------------------------

class Project:
    """A project as the clients address it: its ID in the URL, and the
    token they send (noauth's ``bench:<project>`` unless one is given)."""

    def __init__(self, name, project_id=None, token=None):
        self.name = name
        self.id = project_id or name
        self.token = token or 'bench:%s' % name

    def __str__(self):
        return self.name


class Client:
    """One persistent HTTP/1.1 connection, as one user of one project."""

    def __init__(self, base_url, project, microversion=None):
        if not isinstance(project, Project):
            project = Project(project)
        parts = urllib.parse.urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.prefix = parts.path.rstrip('/') + '/v3/' + project.id
        self.headers = {'X-Auth-Token': project.token,
                        'Accept': 'application/json'}
        if microversion:
            self.headers['OpenStack-API-Version'] = 'volume ' + microversion
        self.post_headers = dict(self.headers,
                                 **{'Content-Type': 'application/json'})
        self.conn = None

    def use_microversion(self, microversion):
        for headers in (self.headers, self.post_headers):
            headers['OpenStack-API-Version'] = 'volume ' + microversion

    def request(self, method, path, body=None):
        """(status, body); status 0 when the connection failed."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port,
                                                   timeout=120)
        headers = self.post_headers if body is not None else self.headers
        try:
            self.conn.request(method, self.prefix + path, body, headers)
            resp = self.conn.getresponse()
            return resp.status, resp.read()
        except (OSError, http.client.HTTPException):
            self.close()
            return 0, b''

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def make_volumes(base_url, project, count, concurrency=8):
    """Create ``count`` volumes in ``project``; return their ids."""
    ids, lock, errors = [], threading.Lock(), []
    shares = [count // concurrency + (i < count % concurrency)
              for i in range(concurrency)]

    def worker(n):
        client = Client(base_url, project)
        for _ in range(n):
            status, body = client.request('POST', '/volumes', CREATE_BODY)
            if status != 202:
                errors.append((status, body[:200]))
                continue
            with lock:
                ids.append(json.loads(body)['volume']['id'])
        client.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in shares]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit('creating volumes failed (%d times), first: %r'
                         % (len(errors), errors[0]))
    return ids


def wait_settled(base_url, project, timeout=900):
    """Wait until no volume of ``project`` is still being created."""
    client = Client(base_url, project)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            status, body = client.request(
                'GET', '/volumes?status=creating&limit=1')
            if status == 200 and not json.loads(body)['volumes']:
                return
            time.sleep(0.2)
    finally:
        client.close()
    raise SystemExit('volumes of %s still creating after %ds'
                     % (project, timeout))


# Workloads ------------------------------------------------------------------
#
# Each is a factory: given a Client and the thread's index, it returns a
# function that sends one request and returns its status. Per-thread state
# (the list marker, which volume to show) lives in the closure.

def create_workload(ctx):
    def factory(client, index):
        def one():
            return client.request('POST', '/volumes', CREATE_BODY)[0]
        return one
    return factory


def show_workload(ctx):
    ids = ctx['show_ids']

    def factory(client, index):
        paths = ['/volumes/' + i for i in ids]
        state = {'i': index * 7919}

        def one():
            state['i'] += 1
            return client.request('GET', paths[state['i'] % len(paths)])[0]
        return one
    return factory


def list_workload(ctx):
    limit = ctx['limit']

    def factory(client, index):
        first = '/volumes/detail?limit=%d' % limit
        state = {'path': first}

        def one():
            status, body = client.request('GET', state['path'])
            # The next page's marker, from volumes_links, without parsing
            # the JSON; no next link means the walk starts again.
            links = body.rfind(b'"volumes_links"')
            match = NEXT_MARKER.search(body, links) if links >= 0 else None
            if status == 200 and match:
                state['path'] = '%s&marker=%s' % (
                    first, match.group(1).decode())
            else:
                state['path'] = first
            return status
        return one
    return factory


def notfound_workload(ctx):
    def factory(client, index):
        path = '/volumes/' + str(uuid.uuid4())

        def one():
            return client.request('GET', path)[0]
        return one
    return factory


def attach_workload(ctx):
    """Create, update, complete and delete one attachment of the thread's
    volume; the status of the first step that fails, or 200."""
    volumes = ctx['attach_volumes']
    update = json.dumps({'attachment': {'connector': ATTACH_CONNECTOR}})
    complete = json.dumps({'os-complete': {}}).encode()

    def factory(client, index):
        client.use_microversion(ATTACH_MICROVERSION)
        create = json.dumps({'attachment': {
            'volume_uuid': volumes[index % len(volumes)],
            'instance_uuid': str(uuid.uuid4())}}).encode()

        def one():
            status, body = client.request('POST', '/attachments', create)
            if status != 200:
                return status
            path = '/attachments/' + json.loads(body)['attachment']['id']
            for method, suffix, data, expected in (
                    ('PUT', '', update.encode(), 200),
                    ('POST', '/action', complete, 204),
                    ('DELETE', '', None, 200)):
                status = client.request(method, path + suffix, data)[0]
                if status != expected:
                    return status
            return 200
        return one
    return factory


def reset_attach_workload(ctx):
    """The attach cycle of Cinder's anchor (performance-anchors.md), as an
    administrator of the project: ``os-reset_status`` of the thread's
    volume to available, an attachment made without a connector and
    deleted; the status of the first step that fails, or 200."""
    volumes = ctx['reset_volumes']
    reset = json.dumps({'os-reset_status': {'status': 'available'}}).encode()

    def factory(client, index):
        client.use_microversion(ATTACH_MICROVERSION)
        volume_id = volumes[index % len(volumes)]
        create = json.dumps({'attachment': {
            'volume_uuid': volume_id,
            'instance_uuid': str(uuid.uuid4())}}).encode()

        def one():
            status = client.request('POST', '/volumes/%s/action' % volume_id,
                                    reset)[0]
            if status != 202:
                return status
            status, body = client.request('POST', '/attachments', create)
            if status != 200:
                return status
            path = '/attachments/' + json.loads(body)['attachment']['id']
            status = client.request('DELETE', path)[0]
            return status
        return one
    return factory


FACTORIES = {'create': create_workload, 'show': show_workload,
             'list': list_workload, 'notfound': notfound_workload,
             'attach': attach_workload, 'reset-attach': reset_attach_workload}


def run_once(base_url, project, factory, concurrency, requests, duration,
             expected, microversion):
    """One measured run; returns (req/s, latencies in s, errors, total)."""
    clients = [Client(base_url, project, microversion)
               for _ in range(concurrency)]
    results = [None] * concurrency
    barrier = threading.Barrier(concurrency + 1, timeout=300)
    shares = [requests // concurrency + (i < requests % concurrency)
              for i in range(concurrency)]

    def worker(i):
        one = factory(clients[i], i)
        one()  # open the connection before the clock starts
        latencies, errors = [], 0
        clock = time.perf_counter
        barrier.wait()
        begin = clock()
        if duration:
            end = begin + duration
            while True:
                t0 = clock()
                if t0 >= end:
                    break
                status = one()
                latencies.append(clock() - t0)
                if status not in expected:
                    errors += 1
        else:
            for _ in range(shares[i]):
                t0 = clock()
                status = one()
                latencies.append(clock() - t0)
                if status not in expected:
                    errors += 1
        results[i] = (latencies, errors, begin, clock())

    threads = [threading.Thread(target=worker, args=(i,), daemon=True)
               for i in range(concurrency)]
    for t in threads:
        t.start()
    barrier.wait()
    for t in threads:
        t.join()
    for c in clients:
        c.close()
    if any(r is None for r in results):
        raise SystemExit('a client thread failed')
    elapsed = max(r[3] for r in results) - min(r[2] for r in results)
    latencies = sorted(x for r in results for x in r[0])
    errors = sum(r[1] for r in results)
    return len(latencies) / elapsed, latencies, errors, len(latencies)


def percentile(sorted_values, p):
    """Nearest-rank percentile of a sorted list."""
    if not sorted_values:
        return float('nan')
    k = math.ceil(p / 100.0 * len(sorted_values)) - 1
    return sorted_values[max(0, min(len(sorted_values) - 1, k))]
