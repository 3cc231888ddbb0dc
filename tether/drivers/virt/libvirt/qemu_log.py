"""What QEMU said when it ended: the tail of its log, for start errors.

When QEMU exits while libvirt starts it (a disk another process holds
the write lock of, a device it refuses), libvirt usually reports QEMU's
own words, but not always: if QEMU is gone before libvirt reaches its
monitor, libvirt says only "failed to connect to monitor socket:
Connection refused". QEMU's stderr is in the domain's log either way
(virtlogd writes it), so a start error is completed from there.
"""

import os
import time
import urllib.parse

# The log directories of libvirt's QEMU driver: the system daemon's and a
# user's session daemon's (under $XDG_CACHE_HOME).
SYSTEM_LOG_DIR = '/var/log/libvirt/qemu'
_STARTING = ': starting up '
_STOPPED = ': shutting down, reason='
# QEMU's own last words that are not a reason it failed.
_NOT_A_REASON = ('terminating on signal', 'char device redirected')


def log_path(uri, domain_name):
    """The log of ``domain_name`` for a local ``uri``; None if remote."""
    parsed = urllib.parse.urlsplit(uri)
    if parsed.netloc or not parsed.scheme.startswith('qemu'):
        return None
    if parsed.path == '/session':
        cache = os.environ.get('XDG_CACHE_HOME',
                               os.path.expanduser('~/.cache'))
        log_dir = os.path.join(cache, 'libvirt', 'qemu', 'log')
    else:
        log_dir = SYSTEM_LOG_DIR
    return os.path.join(log_dir, domain_name + '.log')


def _last_run(path, max_bytes=16384):
    """Lines of the log's last run (from its "starting up" line)."""
    try:
        with open(path, 'rb') as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - max_bytes))
            text = f.read().decode('utf-8', 'replace')
    except OSError:
        return None
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _STARTING in line]
    return lines[starts[-1]:] if starts else None


def _reason(lines):
    """QEMU's error lines of one run, from its first error to its stop."""
    said = []
    for line in lines[1:]:
        if _STOPPED in line:
            break
        # The command line (libvirt logs it after "starting up") is
        # lines of options and environment ending in backslashes.
        if line.endswith('\\') or line.startswith(('-', ' ')):
            continue
        if said or 'qemu-system' in line:
            said.append(line)
    said = [line for line in said
            if not any(n in line for n in _NOT_A_REASON)]
    if not said:
        return None
    first = said[0]
    # "2026-11-24T23:28:10.314471Z qemu-system-x86_64: -blockdev {...}:
    # Failed to get "write" lock": the timestamp and program go.
    if 'qemu-system' in first:
        first = first.split(': ', 1)[-1]
    return [first] + said[1:]


def why_it_stopped(uri, domain_name, wait=1.0, interval=0.05):
    """QEMU's lines on why its last run of the domain ended, or None.

    virtlogd may write the last lines a moment after libvirt answers, so
    the log is read again until it shows the run's end, for at most
    ``wait`` seconds.
    """
    path = log_path(uri, domain_name)
    if path is None:
        return None
    deadline = time.monotonic() + wait
    while True:
        lines = _last_run(path)
        if lines is None:
            return None   # no log (or none of a run): nothing to wait for
        if any(_STOPPED in ln for ln in lines) or \
                time.monotonic() >= deadline:
            return _reason(lines)
        time.sleep(interval)
