"""How long tether-aio takes to start: from its command to its
``tether ready:`` line, on a new state directory (or on the same one
again, ``--state-dir``), then stopped (SIGTERM) and waited for. The
arguments after ``--`` go to tether-aio (``--keystone`` ...). Prints
``ready <seconds>``; farm-bench times the whole::

    farm-bench -n 3 --timeout 900 -- python3 tools/bench/aio_startup.py
    farm-bench -n 3 --timeout 900 -- python3 tools/bench/aio_startup.py \\
        -- --keystone

The virtualenvs of Glance and Keystone must exist already (made at the
first start, or by tools/install-deps.sh): their installation is not
start-up.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--state-dir',
                        help='start on this state directory (kept); '
                             'default: a new one, removed after')
    parser.add_argument('--timeout', type=float, default=600)
    parser.add_argument('aio_args', nargs='*')
    args = parser.parse_args(argv)
    state = args.state_dir or tempfile.mkdtemp(prefix='tether-start-',
                                               dir='/var/tmp')
    os.chmod(state, 0o755)
    # tether-aio's log, kept while it runs (and shown if it fails).
    log = tempfile.TemporaryFile(mode='w+')
    began = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, '-c', 'import sys; from tether.cmd.aio import '
         'main; sys.exit(main())', '--state-dir', state, '--volume-port',
         '0', '--compute-port', '0', '--image-port', '0',
         '--keystone-port', '0'] + args.aio_args,
        stdout=subprocess.PIPE, stderr=log,
        stdin=subprocess.DEVNULL, text=True)
    try:
        for line in proc.stdout:
            if line.startswith('tether ready:'):
                print('ready %.1f' % (time.monotonic() - began), flush=True)
                break
            if time.monotonic() - began > args.timeout:
                raise SystemExit('not ready within %ss' % args.timeout)
        else:
            log.seek(0)
            raise SystemExit('tether-aio exited %s before it was ready:\n%s'
                             % (proc.wait(), log.read()[-3000:]))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(120)
        if not args.state_dir:
            shutil.rmtree(state, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
