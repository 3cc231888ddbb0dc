"""Processes of the integration deployment: start, stop, find what is left.

Every process the deployment starts runs in a session of its own (so that
its whole group can be signalled) with ``TETHER_INTEGRATION_RUN=<tag>`` in
its environment. Children inherit that variable even where they leave the
group or are reparented (RabbitMQ's epmd daemonizes, PostgreSQL's
postmaster detaches from pg_ctl), so ``leftovers(tag)`` finds each process
of a run, wherever it went, by reading ``/proc/<pid>/environ``.

The init of a container may reap exited processes late: a zombie (state
``Z``) has finished and is not counted as alive.
"""

import os
import signal
import socket
import subprocess
import time

RUN_VARIABLE = 'TETHER_INTEGRATION_RUN'


class PortAllocator:
    """Free TCP ports on 127.0.0.1, each handed out once."""

    def __init__(self):
        self.given = set()

    def __call__(self):
        while True:
            with socket.socket() as s:
                s.bind(('127.0.0.1', 0))
                port = s.getsockname()[1]
            if port not in self.given:
                self.given.add(port)
                return port


def _stat(pid):
    """(state, parent, process group) of ``pid``, or None if it is gone."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            text = f.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces: split after its ')'.
    fields = text[text.rindex(')') + 2:].split()
    return fields[0], int(fields[1]), int(fields[2])


def alive(pid):
    """Whether ``pid`` runs (a zombie has finished)."""
    stat = _stat(pid)
    return stat is not None and stat[0] not in ('Z', 'X')


def _pids():
    return [int(name) for name in os.listdir('/proc') if name.isdigit()]


def _live(index, value):
    """The live processes whose stat field ``index`` (1: parent, 2:
    process group) is ``value``."""
    found = []
    for pid in _pids():
        stat = _stat(pid)
        if stat and stat[index] == value and stat[0] not in ('Z', 'X'):
            found.append(pid)
    return found


def group_members(pgid):
    """The live processes of process group ``pgid``."""
    return _live(2, pgid)


def children(ppid):
    """The live children of ``ppid``."""
    return _live(1, ppid)


def leftovers(tag, path=None):
    """Live processes started by the run ``tag`` (and their children), and
    those whose command line names ``path`` (as ``ps`` shows it): a list
    of (pid, command line)."""
    found = []
    if path:
        out = subprocess.run(['ps', '-eo', 'pid=,stat=,args='],
                             stdout=subprocess.PIPE, text=True).stdout
        for line in out.splitlines():
            pid, stat, args = (line.split(None, 2) + ['', ''])[:3]
            if path in args and not stat.startswith(('Z', 'X')) and \
                    int(pid) != os.getpid():
                found.append((int(pid), args))
    needle = ('%s=%s' % (RUN_VARIABLE, tag)).encode()
    for pid in _pids():
        if pid == os.getpid():
            continue
        try:
            with open('/proc/%d/environ' % pid, 'rb') as f:
                environ = f.read().split(b'\0')
        except OSError:
            continue
        if needle in environ and alive(pid) and \
                pid not in [p for p, _ in found]:
            try:
                with open('/proc/%d/cmdline' % pid, 'rb') as f:
                    cmd = f.read().replace(b'\0', b' ').decode(
                        errors='replace').strip()
            except OSError:
                cmd = '?'
            found.append((pid, cmd))
    return found


def wait_until(predicate, timeout, interval=0.1, what='condition'):
    """Poll ``predicate`` until it returns a true value; return it.
    ``what`` (a text, or a callable giving it) names it in the
    TimeoutError."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError('timed out after %.0fs waiting for %s'
                               % (timeout, what() if callable(what)
                                  else what))
        time.sleep(interval)


def run(argv, env=None, timeout=120, check=True, **kwargs):
    """Run a command to its end; its output (stdout and stderr) as text."""
    proc = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=timeout, **kwargs)
    if check and proc.returncode != 0:
        raise RuntimeError('%s exited %d:\n%s'
                           % (' '.join(argv), proc.returncode,
                              proc.stdout[-4000:]))
    return proc.stdout


class Process:
    """One long-running command, in a session of its own, logging to a
    file."""

    def __init__(self, name, argv, log_path, env, cwd=None):
        self.name = name
        self.argv = list(argv)
        self.log_path = log_path
        self.env = env
        self.cwd = cwd
        self.popen = None

    def start(self):
        with open(self.log_path, 'ab') as log:
            self.popen = subprocess.Popen(
                self.argv, env=self.env, cwd=self.cwd,
                stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)
        return self

    @property
    def pid(self):
        return self.popen.pid

    def running(self):
        return self.popen is not None and self.popen.poll() is None

    def send_signal(self, signum):
        if self.running():
            os.kill(self.pid, signum)

    def stop(self, timeout=30, signum=signal.SIGTERM):
        """Signal the whole group, wait for it; SIGKILL what stays."""
        if self.popen is None:
            return
        pgid = self.popen.pid
        try:
            os.killpg(pgid, signum)
        except ProcessLookupError:
            pass
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        if group_members(pgid):
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.popen.wait(timeout)
        wait_until(lambda: not group_members(pgid), timeout,
                   what='the processes of %s to end' % self.name)

    def kill(self):
        """SIGKILL the whole group at once, as a crash would end it."""
        self.stop(timeout=30, signum=signal.SIGKILL)

    def log_tail(self, chars=3000):
        try:
            with open(self.log_path, errors='replace') as f:
                return f.read()[-chars:]
        except OSError:
            return ''
