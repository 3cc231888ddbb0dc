"""What shares.py times, each side of it: the start of a stopped server with
shares through tether-aio (ShareTether), the bare ceph-fuse mount of a
share (BareMount), and the bare start of a guest with as many virtio-fs
devices (bare_start)."""

import os
import subprocess
import time
import uuid

import aio_process
import compute_ops

from tests.functional.share import manila_helpers as mh
from tether.drivers.virt.libvirt import config
from tether.drivers.virt.libvirt import shares as host_shares


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
        return aio_process.wait_for(
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
