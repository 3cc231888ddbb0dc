"""tether-aio for the benchmarks that read its log (online_extend.py,
shares.py): aio_process's tether-aio, started in a session of its own with
more configuration, and its log read back as timestamped lines."""

import datetime
import re
import signal
import subprocess
import sys

import aio_process
from oslo_log import _options as log_options

LOG_LINE = re.compile(r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) ')


class _NewSession:
    """aio_process' ``subprocess`` while it starts tether-aio: Popen with
    start_new_session, so that a Ctrl-C at the terminal (SIGINT to the
    foreground process group) does not stop tether-aio before this
    script's cleanup has used it."""

    def __getattr__(self, name):
        return getattr(subprocess, name)

    @staticmethod
    def Popen(*args, **kwargs):  # noqa: N802 - subprocess's name
        kwargs.setdefault('start_new_session', True)
        return subprocess.Popen(*args, **kwargs)


def start_aio(state_dir, config=''):
    """aio_process' tether-aio, in a session of its own, with ``config``
    after aio_process' configuration."""
    saved = aio_process.subprocess, aio_process.SERVER_CONFIG
    aio_process.subprocess = _NewSession()
    aio_process.SERVER_CONFIG += config
    try:
        return aio_process.Aio(state_dir)
    finally:
        aio_process.subprocess, aio_process.SERVER_CONFIG = saved


def debug_log_levels(loggers):
    """oslo.log's default_log_levels, with ``loggers`` at DEBUG (the value
    of tether.conf's option of that name)."""
    return ','.join([level for level in log_options.DEFAULT_LOG_LEVELS
                     if level.split('=')[0] not in loggers] +
                    ['%s=DEBUG' % name for name in loggers])


def read_log(path):
    """[(wall time, line)] of the lines with a timestamp (local time, as
    oslo.log writes it)."""
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            match = LOG_LINE.match(line)
            if match:
                stamp = datetime.datetime.strptime(match.group(1),
                                                   '%Y-%m-%d %H:%M:%S.%f')
                out.append((stamp.timestamp(), line))
    return out


def report_failure(aio, exc):
    """Say that the run failed, with the end of tether-aio's log (None:
    it did not start)."""
    if aio is not None:
        print('the run failed (%r); tether-aio\'s log ends:\n%s'
              % (exc, aio_process.log_tail(aio.log_path)), file=sys.stderr)


def begin_cleanup():
    """From here on a second Ctrl-C (or a SIGTERM) does not cut the
    cleanup short."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print('cleaning up ...', file=sys.stderr, flush=True)
