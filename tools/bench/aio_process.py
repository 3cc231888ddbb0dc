"""tether-aio as a subprocess of the benchmarks (on free ports, its log in
its state directory), and what they all do with it: connect with
openstacksdk, wait for a state. compute_ops.py, images.py,
online_extend.py and shares.py start it through this module."""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import openstack

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

READY = re.compile(r'tether ready: volume=(\S+) compute=(\S+) image=(\S+)')
SERVER_CONFIG = """\
[DEFAULT]
# Every round makes two volumes; deleted ones may still count for a while.
quota_volumes = -1
quota_gigabytes = -1
"""


class TimedOut(Exception):
    pass


# tether-aio -------------------------------------------------------------

class Aio:
    """A tether-aio subprocess on free ports; its stdout and stderr go to
    a log in its state directory."""

    def __init__(self, state_dir, timeout=180, extra_args=()):
        self.tmp = None
        if state_dir is None:
            # Under /var/tmp, mode 0755: QEMU runs as libvirt-qemu and
            # opens the volume files in <state>/shares/local.
            self.tmp = state_dir = tempfile.mkdtemp(prefix='tether-bench-',
                                                    dir='/var/tmp')
            os.chmod(state_dir, 0o755)
        self.state_dir = state_dir
        os.makedirs(state_dir, exist_ok=True)
        config = os.path.join(state_dir, 'bench.conf')
        with open(config, 'w') as f:
            f.write(SERVER_CONFIG)
        self.log_path = os.path.join(state_dir, 'tether-aio.log')
        self.log = open(self.log_path, 'w')
        self.proc = subprocess.Popen(
            [sys.executable, '-c', 'import sys; from tether.cmd.aio import '
             'main; sys.exit(main())', '--config-file', config,
             '--state-dir', state_dir, '--volume-port', '0',
             '--compute-port', '0', '--image-port', '0'] + list(extra_args),
            stdout=self.log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, cwd=ROOT)
        try:
            self.volume_url, self.compute_url, self.image_url = \
                self._wait_ready(timeout)
        except BaseException:
            self.stop()
            self.cleanup()
            raise

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                match = READY.search(f.read())
            if match:
                return match.groups()
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        with open(self.log_path) as f:
            tail = f.read()[-3000:]
        raise SystemExit('tether-aio did not become ready; its log ends:\n'
                         + tail)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def cleanup(self):
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)


def children(pid, marker):
    """The child processes of ``pid`` whose command line has ``marker``."""
    found = []
    try:
        tasks = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return found
    for task in tasks:
        try:
            with open('/proc/%d/task/%s/children' % (pid, task)) as f:
                kids = f.read().split()
        except OSError:
            continue
        for child in kids:
            try:
                with open('/proc/%s/cmdline' % child, 'rb') as c:
                    if marker.encode() in c.read():
                        found.append(int(child))
            except OSError:
                continue
    return sorted(found)


def connect(aio, project):
    """An openstacksdk connection as a member of ``project`` (noauth)."""
    return openstack.connection.Connection(
        auth_type='admin_token',
        auth={'token': 'bench:%s' % project, 'endpoint': aio.volume_url},
        block_storage_endpoint_override=aio.volume_url,
        block_storage_api_version='3',
        compute_endpoint_override=aio.compute_url,
        compute_api_version='2', region_name='RegionOne')


def wait_for(check, interval, timeout, what):
    """Call ``check`` every ``interval`` s until it returns a true value;
    return (that value, the time it was seen)."""
    deadline = time.perf_counter() + timeout
    while True:
        value = check()
        now = time.perf_counter()
        if value:
            return value, now
        if now > deadline:
            raise TimedOut('%s: not done after %d s' % (what, timeout))
        time.sleep(interval)


def log_tail(path, lines=40):
    try:
        with open(path) as f:
            return ''.join(f.readlines()[-lines:])
    except OSError:
        return ''
