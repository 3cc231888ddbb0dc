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
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, 'tools'))
sys.path.insert(0, HERE)

import compute_ops  # noqa: E402
import extend_attribution  # noqa: E402
import libvirt  # noqa: E402
import online_extend  # noqa: E402
from manila_ceph import deployment as manila_deployment  # noqa: E402
from oslo_log import _options as log_options  # noqa: E402

from tests.functional.share import manila_helpers as mh  # noqa: E402
from tether.drivers.virt.libvirt import config  # noqa: E402
from tether.drivers.virt.libvirt import shares as host_shares  # noqa: E402

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
    levels = [level for level in log_options.DEFAULT_LOG_LEVELS
              if level.split('=')[0] not in DEBUG_LOGGERS]
    levels += ['%s=DEBUG' % name for name in DEBUG_LOGGERS]
    return EXTRA_CONFIG.format(memory=FILE_BACKED_MEMORY_MB,
                               endpoint=endpoint, token=token,
                               levels=','.join(levels))


def start_aio(config):
    """online_extend's tether-aio (a session of its own), with
    ``config`` after compute_ops' configuration."""
    saved = compute_ops.SERVER_CONFIG
    compute_ops.SERVER_CONFIG += config
    try:
        return online_extend.start_aio(None, attribution=False)
    finally:
        compute_ops.SERVER_CONFIG = saved


# The tether side -------------------------------------------------------

class ShareTether(compute_ops.Tether):
    """Stopped servers with shares attached; their starts timed."""

    def __init__(self, conn, interval, timeout):
        super().__init__(conn, interval, timeout)
        self.servers_by_count = {}

    def _attachments(self, server_id):
        return {a.share_id: a.status for a in
                self.conn.compute.share_attachments(server_id)}

    def _settled(self, server_id, status, share_status, count):
        """Whether the server has ``status`` and no task, and each of its
        ``count`` shares ``share_status``."""
        server = self.conn.compute.get_server(server_id)
        if server.status == 'ERROR':
            raise RuntimeError('server %s went to ERROR: %s'
                               % (server_id, server.fault))
        if server.status != status or server.task_state is not None:
            return False
        if not count:
            return True
        found = self._attachments(server_id)
        if 'error' in found.values():
            raise RuntimeError('a share of server %s is in error'
                               % server_id)
        return len(found) == count and set(found.values()) == {share_status}

    def wait_settled(self, server_id, status, share_status, count):
        return compute_ops.wait_for(
            lambda: self._settled(server_id, status, share_status, count),
            self.interval, self.timeout,
            'server %s %s' % (server_id, status))[1]

    def stopped_server(self, count, share_ids):
        """A stopped server from a new 1 GiB volume with ``share_ids``
        attached (each ``inactive``)."""
        root = self.new_volume('bench-shares-root-%d' % count)
        server = self.conn.compute.create_server(
            name='bench-shares-%d' % count, flavor_id=compute_ops.FLAVOR,
            networks='none', block_device_mapping=[{
                'uuid': root, 'source_type': 'volume',
                'destination_type': 'volume', 'boot_index': 0}])
        self.servers.add(server.id)
        self.made.add(server.id)
        self.wait_settled(server.id, 'ACTIVE', None, 0)
        self.stop(server.id, 0)
        for i, share_id in enumerate(share_ids):
            self.conn.compute.create_share_attachment(
                server.id, share_id, tag='share%d' % i)
        self.wait_settled(server.id, 'SHUTOFF', 'inactive', len(share_ids))
        self.servers_by_count[count] = server.id
        return server.id

    def start(self, count):
        """Seconds from the start's POST until the server is ACTIVE and
        its shares active; (started, done) on the wall clock too."""
        server_id = self.servers_by_count[count]
        wall = time.time()
        t0 = time.perf_counter()
        self.conn.compute.start_server(server_id)
        t1 = self.wait_settled(server_id, 'ACTIVE', 'active', count)
        return t1 - t0, wall, wall + (t1 - t0)

    def stop(self, server_id, count):
        self.conn.compute.stop_server(server_id)
        self.wait_settled(server_id, 'SHUTOFF', 'inactive', count)


# The bare mount --------------------------------------------------------

class BareMount:
    """A cephx rule of its own on a share, and the driver's ceph-fuse
    command line for it."""

    def __init__(self, sfs, share, export, workdir):
        self.sfs, self.share_id = sfs, share.id
        name = 'tether-bench-%s' % uuid.uuid4().hex[:6]
        rule = sfs.create_access_rule(share.id, access_type='cephx',
                                      access_to=name, access_level='rw')
        self.rule_id = rule.id
        rule = mh.wait(lambda: next(
            (r for r in sfs.access_rules(share)
             if r.id == rule.id and r.state == 'active'
             and r.access_key), None), 60, 'the bench rule to be active')
        self.keyring = os.path.join(workdir, 'bench.keyring')
        fd = os.open(self.keyring, os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                     0o600)
        with os.fdopen(fd, 'w') as f:
            f.write('[client.%s]\n\tkey = %s\n' % (name, rule.access_key))
        self.mount_point = os.path.join(workdir, 'mnt')
        os.makedirs(self.mount_point)
        mons, path = host_shares.cephfs_export(share.id, export)
        self.argv = ['ceph-fuse', '-c', '/dev/null', '-m', ','.join(mons),
                     '--id', name, '--keyring', self.keyring,
                     '--client_mount_timeout',
                     str(host_shares.CEPH_MOUNT_TIMEOUT),
                     '-r', path, self.mount_point]

    def once(self):
        """(seconds of the mount, seconds of the unmount)."""
        t0 = time.perf_counter()
        subprocess.run(self.argv, check=True, capture_output=True,
                       timeout=host_shares.COMMAND_TIMEOUT)
        t1 = time.perf_counter()
        if not host_shares.is_mounted(self.mount_point):
            raise RuntimeError('ceph-fuse returned, nothing is mounted')
        subprocess.run(['umount', self.mount_point], check=True,
                       capture_output=True, timeout=60)
        return t1 - t0, time.perf_counter() - t1

    def cleanup(self):
        if host_shares.is_mounted(self.mount_point):
            subprocess.run(['umount', '-l', self.mount_point])
        self.sfs.delete_access_rule(self.rule_id, self.share_id)


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
    lines = extend_attribution.read_log(log_path)
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


# The bare guest start --------------------------------------------------

# Not libvirt_ops.PREFIX: a concurrent libvirt_ops.py or compute_ops.py
# removes every tether-bench-* domain when it ends.
GUEST_PREFIX = 'tether-shares-bench-%d-' % os.getpid()


def bare_start(lconn, count, workdir):
    """Seconds of define + start of an OS-less guest as tether's shape
    (64 MiB, file-backed shared memory) with ``count`` virtio-fs devices
    of local directories (libvirt starts a virtiofsd for each); the
    guest is destroyed and undefined after."""
    dirs = []
    for i in range(count):
        dirs.append(os.path.join(workdir, 'fs%d' % i))
        os.makedirs(dirs[-1], exist_ok=True)
    xml = config.to_xml(config.domain(
        name=GUEST_PREFIX + uuid.uuid4().hex[:8], uuid=str(uuid.uuid4()),
        memory_mib=64, vcpus=1, virt_type='qemu', cpu_model='qemu64',
        filesystems=[config.filesystem(d, 'share%d' % i)
                     for i, d in enumerate(dirs)],
        memory_backing=config.memory_backing('file', shared=True,
                                             discard=True)))
    t0 = time.perf_counter()
    dom = lconn.defineXML(xml)
    try:
        dom.create()
        return time.perf_counter() - t0
    finally:
        if dom.isActive():
            dom.destroy()
        dom.undefine()


def remove_bare_guests(lconn):
    for dom in lconn.listAllDomains(0):
        if dom.name().startswith(GUEST_PREFIX):
            if dom.isActive():
                dom.destroy()
            dom.undefine()


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
        aio = start_aio(extra_config(manila.endpoint, service_token))
        project = uuid.uuid4().hex
        tether = ShareTether(compute_ops.connect(aio, project),
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
                  % compute_ops.log_tail(aio.log_path), file=sys.stderr)
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
