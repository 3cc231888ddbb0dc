"""How long a graceful power-off of the tiny guest takes through tether's
libvirt driver (``Guest.shutdown``): waiting on the domain's lifecycle
event, as tether does, against looking every SHUTDOWN_POLL_INTERVAL
(20 ms), as it did. The two alternate on one guest, booted again before
each round (not timed); it prints p50, min and max of each.

As root, with libvirt and the tiny guest's build (as for images.py)::

    python3 tools/bench/power_off.py [-n 8]
"""

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(os.path.dirname(HERE))]

import images  # noqa: E402
from tether.drivers.virt.libvirt import guest as libvirt_guest  # noqa: E402
from tether.drivers.virt.libvirt import host as libvirt_host  # noqa: E402

EVENTS = libvirt_guest.Guest._lifecycle_events


@contextlib.contextmanager
def _no_events(_guest):
    """What a connection without events gives: a look every
    SHUTDOWN_POLL_INTERVAL."""
    yield threading.Event(), libvirt_guest.SHUTDOWN_POLL_INTERVAL


def _domain(conn, workdir):
    marker = sorted(images._tiny_images())[0]
    target = os.path.join(workdir, 'root')
    subprocess.run(['qemu-img', 'convert', '-O', 'raw',
                    images._tiny_images()[marker], target], check=True)
    os.chmod(target, 0o666)
    console = target + '.console'
    xml = images.tiny_domain_xml('tether-bench-power-off', target, console)
    return conn.defineXML(xml), console


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('-n', '--rounds', type=int, default=8)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(dir='/var/tmp', prefix='tether-power-off-')
    os.chmod(workdir, 0o755)
    host = libvirt_host.Host()
    dom, console = _domain(host.get_connection(), workdir)
    seconds = {'lifecycle event': [], '20 ms looks': []}
    try:
        for i in range(args.rounds * 2):
            mode = sorted(seconds)[i % 2]
            libvirt_guest.Guest._lifecycle_events = (
                EVENTS if mode == 'lifecycle event' else _no_events)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(console)
            dom.create()
            images._console_says(console, 'TETHER-GUEST-UP')
            guest = libvirt_guest.Guest(host, dom)
            started = time.perf_counter()
            if not guest.shutdown(60):
                raise RuntimeError('the guest did not power itself off')
            seconds[mode].append(time.perf_counter() - started)
    finally:
        libvirt_guest.Guest._lifecycle_events = EVENTS
        if dom.isActive():
            dom.destroy()
        dom.undefine()
        shutil.rmtree(workdir, ignore_errors=True)
    print('graceful power-off of the tiny guest, %d rounds each (ms)'
          % args.rounds)
    print('%-18s %8s %8s %8s' % ('wait', 'p50', 'min', 'max'))
    for mode, values in sorted(seconds.items()):
        ms = [v * 1000 for v in values]
        print('%-18s %8.1f %8.1f %8.1f'
              % (mode, statistics.median(ms), min(ms), max(ms)))
    print('load average (1, 5, 15 min): %.2f %.2f %.2f' % os.getloadavg())


if __name__ == '__main__':
    main()
