"""The ``openstack`` CLI for the functional and integration tests.

Each command is a process of its own, as a user's is, but not a new
interpreter: a fork server (one per test process) has imported the CLI
once, and forks a child per command that runs the CLI's own ``main``
with the command's arguments, environment and working directory, its
output in files. A new interpreter spent about 2.7 s of CPU importing
openstackclient and its command plugins and reading every installed
package's metadata (cliff's epilog) before it sent a request, some 2.5 s
more than a forked child; the suites run a few hundred commands.
``openstack_run`` is how the tests run the CLI; ``exec_openstack`` runs
the console script itself (the entry point users type), which
tests/functional/test_clouds_yaml.py keeps doing.
"""

import atexit
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading

OPENSTACK = os.path.join(sysconfig.get_path('scripts'), 'openstack')

# The fork server: imports the CLI and what its commands import, then
# forks a child per request (a line of JSON on fd ``requests``) and
# answers its pid (a line on fd ``replies``). It reaps nothing (SIGCHLD
# ignored): each child writes its exit status into its request's
# ``status`` file itself; a child that is killed writes none.
_SERVER = r"""
import json, os, signal, sys, traceback
from importlib import metadata

requests_fd, replies_fd, argv0 = sys.argv[1:]
# What the console script's process has: cliff names the program after
# sys.argv[0] when it is imported.
sys.argv = [argv0]

from cliff import command as cliff_command
from openstackclient import shell

for group in metadata.entry_points().groups:
    if group.startswith('openstack.') and not group.startswith(
            'openstack.cli'):
        for entry_point in metadata.entry_points(group=group):
            try:
                entry_point.load()
            except Exception:
                pass
# What cliff reads from every installed package for a command's epilog.
cliff_command._get_distributions_by_modules()

requests = os.fdopen(int(requests_fd), 'r')
replies = os.fdopen(int(replies_fd), 'w', buffering=1)
signal.signal(signal.SIGCHLD, signal.SIG_IGN)


def child(request):
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        requests.close()
        replies.close()
        os.chdir(request['cwd'])
        os.environ.clear()
        os.environ.update(request['env'])
        for fd, path, flags in (
                (0, os.devnull, os.O_RDONLY),
                (1, request['stdout'], os.O_WRONLY | os.O_TRUNC),
                (2, request['stderr'], os.O_WRONLY | os.O_TRUNC)):
            opened = os.open(path, flags)
            os.dup2(opened, fd)
            os.close(opened)
        sys.stdin = open(os.devnull)
        sys.argv = [argv0] + request['args']
        code = shell.main(request['args'])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (
            0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            with open(request['status'], 'w') as f:
                f.write(str(code or 0))
        finally:
            os._exit(code or 0)


for line in requests:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        child(request)
    replies.write(json.dumps({'pid': pid}) + '\n')
"""


class _ForkServer:
    """The fork server of this process, started on first use (and again
    if it died)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._proc = None
        self._requests = self._replies = None
        self._dir = tempfile.mkdtemp(prefix='tether-cli-')
        atexit.register(shutil.rmtree, self._dir, ignore_errors=True)

    def _start(self):
        requests_r, requests_w = os.pipe()
        replies_r, replies_w = os.pipe()
        self._proc = subprocess.Popen(
            [sys.executable, '-c', _SERVER, str(requests_r), str(replies_w),
             OPENSTACK],
            pass_fds=(requests_r, replies_w), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL)
        os.close(requests_r)
        os.close(replies_w)
        self._requests = os.fdopen(requests_w, 'w', buffering=1)
        self._replies = os.fdopen(replies_r, 'r')

    def _fork(self, request):
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            self._requests.write(json.dumps(request) + '\n')
            reply = self._replies.readline()
        if not reply:
            raise RuntimeError('the CLI fork server ended (exit %s)'
                               % self._proc.poll())
        return json.loads(reply)['pid']

    def run(self, args, env, timeout):
        """``openstack ARGS`` in a child: a CompletedProcess, or
        subprocess.TimeoutExpired (the child killed) after ``timeout``
        s."""
        files = {}
        for name in ('stdout', 'stderr', 'status'):
            fd, files[name] = tempfile.mkstemp(prefix=name, dir=self._dir)
            os.close(fd)
        os.unlink(files['status'])
        try:
            pid = self._fork(dict(
                files, args=list(args), env=dict(env), cwd=os.getcwd()))
            self._wait(pid, files['status'], timeout, args)
            out = {}
            for name in ('stdout', 'stderr'):
                with open(files[name], encoding='utf-8',
                          errors='replace') as f:
                    out[name] = f.read()
            try:
                with open(files['status']) as f:
                    code = int(f.read())
            except FileNotFoundError:
                code = -signal.SIGKILL
            return subprocess.CompletedProcess(
                [OPENSTACK] + list(args), code, out['stdout'],
                out['stderr'])
        finally:
            for path in files.values():
                if os.path.exists(path):
                    os.unlink(path)

    @staticmethod
    def _wait(pid, status, timeout, args):
        try:
            pidfd = os.pidfd_open(pid)
        except ProcessLookupError:
            return      # it has already ended (and been reaped)
        try:
            if os.path.exists(status):
                return  # it has written its status: all is written
            ready, _, _ = select.select([pidfd], [], [], timeout)
            if not ready:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                # Gone before the caller goes on, as subprocess.run has it.
                select.select([pidfd], [], [], 30)
                raise subprocess.TimeoutExpired([OPENSTACK] + list(args),
                                                timeout)
        finally:
            os.close(pidfd)


_FORK_SERVER = _ForkServer()


def openstack_run(args, env=None, timeout=300):
    """``openstack ARGS`` (stdin empty, text output captured), as
    ``subprocess.run([OPENSTACK, *args], ...)`` would give it."""
    return _FORK_SERVER.run(args, os.environ if env is None else env,
                            timeout)


def exec_openstack(args, env=None, timeout=300):
    """``openstack ARGS`` as a new process of the console script."""
    return subprocess.run([OPENSTACK] + list(args), env=env,
                          capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout)
