#!/usr/bin/env python3
"""Start of a stopped server with CephFS shares against the same start
without, and against the bare ceph-fuse mount.

Against a tether-aio pointed at a real Manila on a one-node Ceph
(tools/manila_ceph/deployment.py), over HTTP with openstacksdk: three
volume-backed servers with no OS (flavor m1.nano, networks "none"), with
0, 1 and 3 CEPHFS shares (share type ``cephfs``, 1 GiB) attached while
stopped (compute 2.97). A sample is

    POST /servers/{id}/action {"os-start": null}

until the server is ACTIVE with no task and each of its shares is
``active`` (GET /servers/{id}/shares), polled every 20 ms (--interval);
the server is stopped again, not timed, before the next sample. Each of
N rounds (default 5) starts the three servers in turn, after one bare
mount of a share: ``ceph-fuse`` with the driver's own command line
(tether/drivers/virt/libvirt/shares.py, ``_mount_cephfs``), as a cephx
user of its own, timed until it returns (it daemonizes once mounted),
and the ``umount`` after it, timed apart. One unmeasured round comes
first.

Each round also times a bare guest start: define + start with
libvirt-python of an OS-less guest of the same shape (64 MiB, file-backed
shared memory) with 0, 1 and 3 virtio-fs devices of local directories,
for which libvirt starts as many virtiofsd.

It prints min, p50 and max of each, the cost of a share (p50 with one
share less p50 with none; p50 with three less p50 with none, over three)
and that cost less the bare mount's p50: what tether adds per share
beyond the mount (issue #14's aim: under 300 ms). Then where the time of
a start goes, from tether-aio's log (its share steps and its HTTP
requests to Manila, logged at DEBUG for this), beside the bare starts.

    python3 tools/bench/shares.py [-n 5] [--json PATH] [--keep-log PATH]

Needs root, /dev/fuse, libvirt with virtiofsd and the Manila deployment's
packages (tools/install-deps.sh test and manila). At the end, after an
error or a Ctrl-C, it deletes its servers (which releases their shares),
volumes, shares and cephx rule, unmounts its own mount, stops tether-aio
and Manila and removes their directories. It measures; it asserts
nothing.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, 'tools'))
sys.path.insert(0, HERE)

import aio_log  # noqa: E402
import aio_process  # noqa: E402
import compute_ops  # noqa: E402
import libvirt  # noqa: E402
from manila_ceph import deployment as manila_deployment  # noqa: E402
from share_rounds import (  # noqa: E402
    BareMount, ShareTether, bare_start, remove_bare_guests)

from tests.functional.share import manila_helpers as mh  # noqa: E402

COUNTS = (0, 1, 3)          # shares per server
MICROVERSION = '2.97'
# The host must report COMPUTE_MEM_BACKING_FILE for a share to be
# attached; the guests are 64 MiB, one running at a time.
FILE_BACKED_MEMORY_MB = 1024

# Lines of tether-aio's log a start is broken down by: the compute
# service's share steps (DEBUG) and its HTTP requests to Manila (urllib3's
# response lines, DEBUG).
DEBUG_LOGGERS = ('tether.drivers.virt.libvirt.shares',
                 'tether.compute.share_client', 'urllib3.connectionpool')

EXTRA_CONFIG = """\
[libvirt]
file_backed_memory = {memory}

[share]
endpoint_override = {endpoint}
noauth_token = {token}

[DEFAULT]
# The guests have no OS: a stop would wait out the whole timeout.
shutdown_timeout = 0
default_log_levels = {levels}
"""


def extra_config(endpoint, token):
    return EXTRA_CONFIG.format(
        memory=FILE_BACKED_MEMORY_MB, endpoint=endpoint, token=token,
        levels=aio_log.debug_log_levels(DEBUG_LOGGERS))


# Where the time goes ---------------------------------------------------

# (step, the test of the log line that ends it). Per share, in order:
# the GET of its rules (_grant), the response, ceph-fuse started, mounted.
SHARE_LINES = (
    ('grant', lambda line: 'GET /share-access-rules (share' in line),
    ('granted', lambda line: '"GET /v2/share-access-rules' in line),
    ('ceph-fuse', lambda line: 'running ceph-fuse' in line),
    ('mounted', lambda line: 'Mounted share ' in line),
)
STEPS = (
    ('to_first', 'POST to the first share: API, RPC, mappings'),
    ('manila', 'GET of the share\'s rules in Manila (_grant), per share'),
    ('mount', 'ceph-fuse, per share'),
    ('other', 'the rest of a share\'s turn (lock, keyring, state)'),
    ('define', 'last mount to the guest\'s new definition'),
    ('rest', 'libvirt start (QEMU, virtiofsd), ACTIVE, polling'),
)


def breakdown(log_path, marks):
    """{count: [{step: seconds}]} of the starts of ``marks`` [(count,
    wall start, wall end)] with shares, from tether-aio's log; a start
    whose lines are not all found is left out."""
    lines = aio_log.read_log(log_path)
    out = {}
    for count, start, end in marks:
        if not count:
            continue
        # The log has milliseconds; the client's clock, microseconds.
        window = [(t - start, line) for t, line in lines
                  if start - 0.002 <= t <= end + 0.002]
        seen, pos = [], 0
        for _share in range(count):
            for _name, test in SHARE_LINES:
                while pos < len(window) and not test(window[pos][1]):
                    pos += 1
                if pos == len(window):
                    break
                seen.append(window[pos][0])
        defined = [t for t, line in window if 'starts with the shares'
                   in line]
        if len(seen) != 4 * count or not defined:
            continue
        turns = [seen[i:i + 4] for i in range(0, len(seen), 4)]
        steps = {'to_first': turns[0][0],
                 'manila': sum(t[1] - t[0] for t in turns) / count,
                 'mount': sum(t[3] - t[2] for t in turns) / count,
                 'define': defined[0] - turns[-1][3],
                 'rest': (end - start) - defined[0]}
        # From the first GET to the last mount, what is neither.
        steps['other'] = (turns[-1][3] - turns[0][0]) / count - (
            steps['manila'] + steps['mount'])
        out.setdefault(count, []).append(steps)
    return out


def print_breakdown(found, bare_starts):
    if not found:
        return
    print()
    print('where a start goes (p50 per start, ms; from tether-aio\'s log)')
    counts = sorted(found)
    print('%-56s' % '' + ''.join('%10s' % ('%d share%s' % (
        c, '' if c == 1 else 's')) for c in counts))
    for name, what in STEPS:
        print('%-56s' % what + ''.join(
            '%10.0f' % ms([f[name] for f in found[c]]) for c in counts))
    print('%-56s' % 'bare libvirt define+start, same shares' + ''.join(
        '%10.0f' % ms(bare_starts[c]) for c in counts))
    print('%-56s%10.0f' % ('bare libvirt define+start, no share',
                           ms(bare_starts[0])))


# Figures ---------------------------------------------------------------

def ms(values):
    return statistics.median(values) * 1000


def print_figures(starts, mounts, umounts, rounds, interval):
    print()
    print('%d rounds, polling every %d ms; milliseconds'
          % (rounds, interval * 1000))
    print('%-34s %8s %8s %8s' % ('', 'min', 'p50', 'max'))
    for count in COUNTS:
        values = starts[count]
        print('%-34s %8.0f %8.0f %8.0f' % (
            'start, %d CephFS share%s' % (count, '' if count == 1 else 's'),
            min(values) * 1000, ms(values), max(values) * 1000))
    for label, values in (('ceph-fuse mount (bare)', mounts),
                          ('umount (bare)', umounts)):
        print('%-34s %8.0f %8.0f %8.0f' % (label, min(values) * 1000,
                                           ms(values), max(values) * 1000))
    base, mount = ms(starts[0]), ms(mounts)
    per_share = {1: ms(starts[1]) - base, 3: (ms(starts[3]) - base) / 3}
    print()
    for count, cost in per_share.items():
        print('per share, from %d share%s: %6.0f ms; less the mount: '
              '%6.0f ms (aim: under 300)' % (
                  count, '' if count == 1 else 's', cost, cost - mount))
    return per_share


def main(argv=None):
    parser = compute_ops.argument_parser(
        'Measured rounds (each: one bare mount, one start of each server).')
    parser.set_defaults(rounds=5)
    parser.add_argument('--keep-log', metavar='PATH',
                        help='Copy tether-aio\'s log here at the end.')
    args = compute_ops.checked_args(parser, argv)
    if os.geteuid() != 0 or not os.path.exists('/dev/fuse'):
        parser.error('needs root and /dev/fuse (ceph-fuse mounts)')
    subprocess.run([os.path.join(ROOT, 'tools', 'start-libvirt.sh')],
                   check=True)
    print('load average at the start: %s' % compute_ops.load_average(),
          flush=True)
    manila_dir = tempfile.mkdtemp(prefix='tether-bench-manila-')
    os.chmod(manila_dir, 0o755)   # PostgreSQL and RabbitMQ run as theirs
    workdir = tempfile.mkdtemp(prefix='tether-bench-mount-')
    manila = aio = tether = user_shares = bare = None
    service_token = mh.token()
    problems, found = [], {}
    starts = {count: [] for count in COUNTS}
    bare_starts = {count: [] for count in COUNTS}
    mounts, umounts, marks = [], [], []
    lconn = libvirt.open('qemu:///system')
    try:
        manila = manila_deployment.Deployment(
            manila_dir, log=lambda msg: print(msg, flush=True))
        manila.start()
        print('starting tether-aio ...', flush=True)
        aio = aio_log.start_aio(
            None, extra_config(manila.endpoint, service_token))
        project = uuid.uuid4().hex
        tether = ShareTether(aio_process.connect(aio, project),
                             args.interval, args.timeout)
        # The user's shares, in the same project as its servers; deleted
        # with the service's token (the locks of tether's rules are the
        # service's).
        user_shares = mh.Shares(mh.proxy(manila, 'bench:%s' % project))
        made = [user_shares.create() for _ in range(sum(COUNTS))]
        ids = [share.id for share, _export in made]
        at = 0
        for count in COUNTS:
            tether.stopped_server(count, ids[at:at + count])
            at += count
        bare = BareMount(user_shares.sfs, made[0][0], made[0][1], workdir)
        print('shares attached; measuring', flush=True)
        for i in range(-1, args.rounds):
            mount, umount = bare.once()
            bare_took = {count: bare_start(lconn, count, workdir)
                         for count in COUNTS}
            took = {}
            for count in COUNTS:
                took[count], wall0, wall1 = tether.start(count)
                tether.stop(tether.servers_by_count[count], count)
                if i >= 0:
                    starts[count].append(took[count])
                    marks.append((count, wall0, wall1))
            if i >= 0:
                mounts.append(mount)
                umounts.append(umount)
                for count in COUNTS:
                    bare_starts[count].append(bare_took[count])
            label = 'warm-up' if i < 0 else 'round %d' % (i + 1)
            print('%s: start %s ms; mount %.0f ms, umount %.0f ms; bare '
                  'guest start %s ms' % (
                      label, ', '.join('%d shares %.0f' % (
                          c, took[c] * 1000) for c in COUNTS),
                      mount * 1000, umount * 1000, ', '.join(
                          '%.0f' % (bare_took[c] * 1000) for c in COUNTS)),
                  flush=True)
    except BaseException:
        if aio is not None:
            print('the run failed; tether-aio\'s log ends:\n%s'
                  % aio_process.log_tail(aio.log_path), file=sys.stderr)
        raise
    finally:
        if bare is not None:
            try:
                bare.cleanup()
            except Exception as exc:  # noqa: BLE001 - report, go on
                problems.append('bench rule: %s' % exc)
        if tether is not None:
            problems += tether.cleanup()
        if user_shares is not None:
            user_shares.sfs = mh.proxy(manila, service_token)
            try:
                user_shares.delete_all()
            except Exception as exc:  # noqa: BLE001
                problems.append('shares: %s' % exc)
        if aio is not None:
            aio.stop()
            if args.keep_log:
                shutil.copy(aio.log_path, args.keep_log)
            found = breakdown(aio.log_path, marks) if marks else {}
            aio.cleanup()
        if manila is not None:
            manila.stop()
        shutil.rmtree(manila_dir, ignore_errors=True)
        remove_bare_guests(lconn)
        stray = compute_ops.remove_guests(lconn, tether.made if tether
                                          else ())
        if stray:
            problems.append('guests tether left behind, removed: %s'
                            % ', '.join(stray))
        lconn.close()
        shutil.rmtree(workdir, ignore_errors=True)
        for problem in problems:
            print('cleanup: %s' % problem, file=sys.stderr)

    print('load average at the end: %s' % compute_ops.load_average())
    per_share = print_figures(starts, mounts, umounts, args.rounds,
                              args.interval)
    print_breakdown(found, bare_starts)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'starts_s': starts, 'mounts_s': mounts,
                       'umounts_s': umounts,
                       'bare_starts_s': bare_starts, 'per_share_ms': per_share,
                       'breakdown': found}, f, indent=1)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
