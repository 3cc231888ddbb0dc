"""A whole tether-aio as its command runs it: a subprocess, with its API
worker processes (--api-workers)."""

import os
import queue
import signal
import subprocess
import threading

from tests import openstack_cli

# Where no Glance listens: tether-aio then starts none (its start takes
# seconds); the tests that use this make no image calls.
NO_GLANCE = 'http://127.0.0.1:9'


def start(state_dir, *extra, timeout=60):
    """tether-aio in a subprocess; (process, volume URL) once it is ready.

    ``extra`` arguments follow the defaults (free ports, a Glance of its
    own unless ``--image-url`` is among them); ``timeout``: the longest
    wait for a line of its output.
    """
    proc = subprocess.Popen(
        ['tether-aio', '--state-dir', str(state_dir), '--volume-port', '0',
         '--compute-port', '0', '--image-port', '0'] + list(extra),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines = queue.Queue()

    def read():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    while True:
        try:
            line = lines.get(timeout=timeout)
        except queue.Empty:
            line = None
        if line is None:
            proc.kill()
            raise AssertionError('tether-aio did not become ready')
        if line.startswith('tether ready: volume='):
            url = line.split('volume=', 1)[1].split()[0]
            return proc, url


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def openstack(state_dir, cloud, *args):
    """``openstack ARGS`` as ``cloud`` of the clouds.yaml of the
    tether-aio of ``state_dir`` (a pathlib.Path); its output, once it
    succeeded."""
    env = dict(os.environ,
               OS_CLIENT_CONFIG_FILE=str(state_dir / 'clouds.yaml'),
               OS_CLOUD=cloud)
    proc = openstack_cli.openstack_run(args, env=env)
    assert proc.returncode == 0, (args, proc.stderr)
    return proc.stdout


def workers(proc):
    """The PIDs of the API workers of a tether-aio process."""
    found = set()
    for task in _tasks(proc.pid):
        try:
            with open('/proc/%d/task/%s/children' % (proc.pid, task)) as f:
                children = f.read().split()
        except OSError:
            continue
        for child in children:
            try:
                with open('/proc/%s/cmdline' % child, 'rb') as f:
                    if b'tether.cmd.aio_worker' in f.read():
                        found.add(int(child))
            except OSError:
                continue
    return found


def _tasks(pid):
    try:
        return os.listdir('/proc/%d/task' % pid)
    except OSError:
        return []
