"""tether-aio with API worker processes (``--api-workers``): the APIs in
processes of their own, the managers in the main one, RPC between them
through the main process's broker (tether.socket_transport).

Every test runs the real command as a subprocess, with the in-process
memory broker, real SQLite shared by the processes and real qemu-img.
"""

import concurrent.futures
import http.client
import os
import signal
import urllib.parse

import requests

from tests.functional import aio_subprocess
from tests.functional import helpers

CONNECTOR = {'host': 'worker-test-host', 'initiator': 'iqn.test',
             'mountpoint': '/dev/vdb', 'mode': 'rw'}


def _session(project='demo'):
    session = requests.Session()
    session.headers['X-Auth-Token'] = '%s:%s' % (project, project)
    session.headers['OpenStack-API-Version'] = 'volume 3.44'
    return session


def _start(tmp_path, workers=2):
    return aio_subprocess.start(tmp_path / 'state', '--api-workers',
                                str(workers), '--image-url',
                                aio_subprocess.NO_GLANCE)


def _available_volume(session, url, wait):
    resp = session.post(url + '/demo/volumes', json={'volume': {'size': 1}})
    assert resp.status_code == 202, resp.text
    volume_id = resp.json()['volume']['id']
    wait(lambda: session.get(url + '/demo/volumes/' + volume_id).json()
         ['volume']['status'] == 'available', what='volume available')
    return volume_id


def _attach_cycle(session, url, volume_id):
    """Reserve, connect (a call to the manager), complete, delete (a
    second call): what each step answered."""
    resp = session.post(url + '/demo/attachments', json={'attachment': {
        'volume_uuid': volume_id, 'instance_uuid': None}})
    assert resp.status_code == 200, resp.text
    attachment_id = resp.json()['attachment']['id']
    resp = session.put(url + '/demo/attachments/' + attachment_id,
                       json={'attachment': {'connector': CONNECTOR}})
    assert resp.status_code == 200, resp.text
    connection = resp.json()['attachment']['connection_info']
    resp = session.post(url + '/demo/attachments/%s/action' % attachment_id,
                        json={'os-complete': None})
    assert resp.status_code == 204, resp.text
    in_use = session.get(url + '/demo/volumes/' + volume_id).json()['volume']
    resp = session.delete(url + '/demo/attachments/' + attachment_id)
    assert resp.status_code == 200, resp.text
    return connection, in_use['status']


def test_the_workers_serve_and_reach_the_managers(tmp_path, wait):
    proc, url = _start(tmp_path)
    try:
        assert len(aio_subprocess.workers(proc)) == 2
        session = _session()
        volume_id = _available_volume(session, url, wait)  # a cast
        connection, status = _attach_cycle(session, url, volume_id)  # calls
        assert connection['driver_volume_type'] == 'nfs'
        assert status == 'in-use'
        assert session.get(url + '/demo/volumes/' + volume_id).json()[
            'volume']['status'] == 'available'
        # Both workers take connections: new connections until each of
        # them has answered one.
        answered_by = set()
        for _ in range(200):
            answered_by.add(_answered_by(url, '/demo/volumes/' + volume_id))
            if len(answered_by) == 2:
                break
        assert answered_by == aio_subprocess.workers(proc)
    finally:
        aio_subprocess.stop(proc)
    assert not os.path.exists(tmp_path / 'state' / 'aio-broker.sock')


def _answered_by(url, path):
    """The PID of the process that answers ``path`` on a new connection
    (another one while the server's end of the last was already closed:
    a closed end is in no process)."""
    for _ in range(10):
        pid = _answered_once(url, path)
        if pid is not None:
            return pid
    raise AssertionError('the server closed 10 connections in a row '
                         'before it could be found')


def _answered_once(url, path):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port)
    try:
        conn.request('GET', parts.path + path,
                     headers={'X-Auth-Token': 'demo:demo'})
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200
        return _server_end(conn.sock.getsockname()[1])
    finally:
        conn.close()


def _server_end(client_port):
    """The PID of the process holding the server end of the TCP
    connection from ``client_port`` (from /proc: the socket's inode), or
    None if that end is closed already (TIME_WAIT: inode 0)."""
    inode = None
    with open('/proc/net/tcp') as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if int(fields[2].split(':')[1], 16) == client_port:
                inode = fields[9]
    assert inode, 'the server end of port %d not found' % client_port
    if inode == '0':
        return None
    target = 'socket:[%s]' % inode
    pid = helpers.holder(target)
    assert pid is not None, 'no process holds %s' % target
    return pid


def test_a_dead_worker_is_replaced(tmp_path, wait):
    proc, url = _start(tmp_path)
    try:
        before = aio_subprocess.workers(proc)
        victim = sorted(before)[0]
        os.kill(victim, signal.SIGKILL)
        wait(lambda: len(aio_subprocess.workers(proc) - {victim}) == 2,
             timeout=90, what='a new worker')
        session = _session()
        volume_id = _available_volume(session, url, wait)
        assert _attach_cycle(session, url, volume_id)[1] == 'in-use'
    finally:
        aio_subprocess.stop(proc)


def test_no_worker_outlives_the_main_process(tmp_path, wait):
    proc, url = _start(tmp_path)
    workers = aio_subprocess.workers(proc)
    assert len(workers) == 2
    proc.kill()  # no chance to stop them: they see their stdin close
    proc.wait()

    def all_gone():
        for pid in workers:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                continue
            # A zombie of ours is gone too (init reaps it).
            with open('/proc/%d/stat' % pid) as f:
                if f.read().split(')')[1].split()[0] != 'Z':
                    return False
        return True
    wait(all_gone, timeout=30, what='the workers to exit')


def test_zero_workers_serves_from_the_main_process(tmp_path, wait):
    proc, url = _start(tmp_path, workers=0)
    try:
        assert aio_subprocess.workers(proc) == set()
        session = _session()
        volume_id = _available_volume(session, url, wait)
        assert _attach_cycle(session, url, volume_id)[1] == 'in-use'
    finally:
        aio_subprocess.stop(proc)


def test_concurrent_writers_in_several_processes(tmp_path, wait):
    """Creates and attachment cycles from 5 clients spread over both
    workers: SQLite's writers in three processes take turns, nothing is
    refused, and quota usage ends exact."""
    proc, url = _start(tmp_path)
    try:
        session = _session()
        volumes = [_available_volume(session, url, wait) for _ in range(5)]

        def work(volume_id):
            own = _session()
            own.headers['Connection'] = 'close'  # each its own worker
            results = [_attach_cycle(own, url, volume_id)[1]
                       for _ in range(3)]
            resp = own.post(url + '/demo/volumes',
                            json={'volume': {'size': 1}})
            return results, resp.status_code
        with concurrent.futures.ThreadPoolExecutor(5) as pool:
            outcomes = list(pool.map(work, volumes))
        assert outcomes == [(['in-use'] * 3, 202)] * 5
        wait(lambda: all(v['status'] == 'available' for v in session.get(
            url + '/demo/volumes/detail').json()['volumes']),
            what='every volume available')
        usage = session.get(url + '/demo/os-quota-sets/demo?usage=True'
                            ).json()['quota_set']
        assert usage['volumes']['in_use'] == 10
        assert usage['gigabytes']['in_use'] == 10
        assert usage['volumes']['reserved'] == 0
    finally:
        aio_subprocess.stop(proc)
