"""A one-node Ceph Pacific cluster in userspace, with a CephFS file system.

Debian's packages (bindep profile ``manila``), every daemon in the
foreground as a child of ours (``-f``: we hold its PID and stop it by
that), all state and sockets under one directory. The OSD keeps its
objects in memory (memstore): no disk, no kernel module; the data is gone
when it stops, which is all a test cluster needs.

``ceph-mgr`` runs with a real stderr on purpose: its volumes module
writes to stderr while it authorizes a cephx client (``fs subvolume
authorize``), and with the descriptor closed (a daemonized mgr) that fails
with EBADF and Manila's access rule ends in ``error``.
"""

import json
import os
import subprocess
import uuid

from integration.processes import Process, run, wait_until

FS_NAME = 'cephfs'
# The client Manila's CephFS driver authenticates as.
MANILA_AUTH_ID = 'manila'

CEPH_CONF = """\
[global]
fsid = {fsid}
mon_initial_members = a
mon_host = [v2:127.0.0.1:{mon_v2},v1:127.0.0.1:{mon_v1}]
public_addr = 127.0.0.1
auth_cluster_required = cephx
auth_service_required = cephx
auth_client_required = cephx
keyring = {dir}/$cluster.$name.keyring
run_dir = {dir}/run
admin_socket = {dir}/run/$name.asok
pid_file = {dir}/run/$name.pid
log_file = {dir}/log/$name.log
mon_data = {dir}/mon/$cluster-$id
mgr_data = {dir}/mgr/$cluster-$id
osd_data = {dir}/osd/$cluster-$id
mds_data = {dir}/mds/$cluster-$id
# The OSD, MDS and mgr bind in this range (none of the defaults: a
# packaged Ceph may run here).
ms_bind_port_min = {port_min}
ms_bind_port_max = {port_max}
# One OSD: pools of one copy, and no warnings about it.
osd_pool_default_size = 1
osd_pool_default_min_size = 1
mon_allow_pool_size_one = true
mon_warn_on_pool_no_redundancy = false
mon_max_pg_per_osd = 1000
osd_crush_chooseleaf_type = 0
osd_objectstore = memstore
memstore_device_bytes = {memstore_bytes}
osd_memory_target = 1073741824

[mon]
keyring = {dir}/mon/$cluster-$id/keyring
[mgr]
keyring = {dir}/mgr/$cluster-$id/keyring
[osd]
keyring = {dir}/osd/$cluster-$id/keyring
[mds]
keyring = {dir}/mds/$cluster-$id/keyring
"""


class Ceph:
    """The cluster: one mon (a), one mgr (x), one memstore OSD, one MDS
    (a) and the file system ``cephfs``; ``client.manila`` may manage its
    subvolumes.

    ``memstore_bytes`` is the OSD's size as Ceph reports it; memstore takes
    memory only for what is written, so it is large: Manila's scheduler
    counts each 1 GiB share against the capacity it read when
    manila-share started (and never again in a test's time), and a 2 GiB
    OSD took two shares a session, then NoValidHost.
    """

    def __init__(self, root, ports, env, port_range=(26800, 26999),
                 memstore_bytes=32 << 30):
        self.dir = os.path.join(root, 'ceph')
        self.conf = os.path.join(self.dir, 'ceph.conf')
        self.mon_v2 = ports()
        self.mon_v1 = ports()
        self.port_range = port_range
        self.memstore_bytes = memstore_bytes
        self.env = dict(env, CEPH_CONF=self.conf)
        self.processes = []

    def ceph(self, *args, timeout=120):
        return run(['ceph', '--conf', self.conf] + list(args),
                   env=self.env, timeout=timeout, cwd=self.dir)

    def _daemon(self, name, argv):
        process = Process(
            'ceph-' + name, argv + ['-f', '--conf', self.conf],
            os.path.join(self.dir, 'log', name + '.stdout'), self.env,
            cwd=self.dir).start()
        self.processes.append(process)
        return process

    def _keyring(self, *argv):
        run(['ceph-authtool'] + list(argv), env=self.env, cwd=self.dir)

    def start(self):
        """Make the cluster and start its daemons; returns when the file
        system has an active MDS."""
        for sub in ('run', 'log', 'mon/ceph-a', 'mgr/ceph-x', 'mds/ceph-a'):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
        fsid = str(uuid.uuid4())
        with open(self.conf, 'w') as f:
            f.write(CEPH_CONF.format(
                fsid=fsid, dir=self.dir, mon_v2=self.mon_v2,
                mon_v1=self.mon_v1, port_min=self.port_range[0],
                port_max=self.port_range[1],
                memstore_bytes=self.memstore_bytes))
        mon_keyring = os.path.join(self.dir, 'mon.keyring')
        admin_keyring = os.path.join(self.dir, 'ceph.client.admin.keyring')
        self._keyring('--create-keyring', mon_keyring, '--gen-key',
                      '-n', 'mon.', '--cap', 'mon', 'allow *')
        self._keyring('--create-keyring', admin_keyring, '--gen-key',
                      '-n', 'client.admin', '--cap', 'mon', 'allow *',
                      '--cap', 'osd', 'allow *', '--cap', 'mds', 'allow *',
                      '--cap', 'mgr', 'allow *')
        self._keyring(mon_keyring, '--import-keyring', admin_keyring)
        monmap = os.path.join(self.dir, 'monmap')
        run(['monmaptool', '--create', '--addv', 'a',
             '[v2:127.0.0.1:%d,v1:127.0.0.1:%d]' % (self.mon_v2,
                                                    self.mon_v1),
             '--fsid', fsid, monmap], env=self.env, cwd=self.dir)
        run(['ceph-mon', '--conf', self.conf, '--mkfs', '-i', 'a',
             '--monmap', monmap, '--keyring', mon_keyring],
            env=self.env, cwd=self.dir)
        self._daemon('mon.a', ['ceph-mon', '-i', 'a'])
        wait_until(self._mon_answers, 60, interval=0.5,
                   what='ceph-mon to answer')

        self.ceph('auth', 'get-or-create', 'mgr.x', 'mon', 'allow profile mgr',
                  'osd', 'allow *', 'mds', 'allow *', '-o',
                  os.path.join(self.dir, 'mgr/ceph-x/keyring'))
        self._daemon('mgr.x', ['ceph-mgr', '-i', 'x'])

        osd_uuid = str(uuid.uuid4())
        osd_id = self.ceph('osd', 'new', osd_uuid).strip()
        osd_dir = os.path.join(self.dir, 'osd', 'ceph-' + osd_id)
        os.makedirs(osd_dir, exist_ok=True)
        # --no-mon-config: at mkfs the OSD has no key to ask the mon with.
        run(['ceph-osd', '--conf', self.conf, '-i', osd_id, '--mkfs',
             '--mkkey', '--osd-uuid', osd_uuid, '--no-mon-config'],
            env=self.env, cwd=self.dir)
        self.ceph('auth', 'add', 'osd.' + osd_id, 'osd', 'allow *', 'mon',
                  'allow profile osd', 'mgr', 'allow profile osd', '-i',
                  os.path.join(osd_dir, 'keyring'))
        self._daemon('osd.' + osd_id, ['ceph-osd', '-i', osd_id])

        self.ceph('auth', 'get-or-create', 'mds.a', 'mon', 'allow profile mds',
                  'osd', 'allow rwx', 'mds', 'allow', 'mgr',
                  'allow profile mds', '-o',
                  os.path.join(self.dir, 'mds/ceph-a/keyring'))
        self._daemon('mds.a', ['ceph-mds', '-i', 'a'])
        # The volumes module of the mgr makes the pools and the file
        # system: wait for an active mgr first.
        wait_until(self._mgr_available, 120, interval=0.5,
                   what='an active ceph-mgr')
        wait_until(self._create_fs, 120, interval=1,
                   what='ceph fs volume create %s' % FS_NAME)
        wait_until(self._mds_active, 120, interval=0.5,
                   what='an active MDS for %s' % FS_NAME)
        self.ceph('auth', 'get-or-create', 'client.' + MANILA_AUTH_ID,
                  'mon', 'allow r', 'mgr', 'allow rw', '-o',
                  os.path.join(self.dir,
                               'ceph.client.%s.keyring' % MANILA_AUTH_ID))
        return self

    def _check_daemons(self):
        for process in self.processes:
            if not process.running():
                raise RuntimeError('%s exited:\n%s' % (
                    process.name, process.log_tail()))

    def _json(self, *args):
        self._check_daemons()
        try:
            return json.loads(self.ceph(*args, '--format', 'json',
                                        timeout=30))
        except (RuntimeError, subprocess.TimeoutExpired, ValueError):
            return None

    def _mon_answers(self):
        return self._json('mon', 'stat') is not None

    def _mgr_available(self):
        stat = self._json('mgr', 'stat')
        return bool(stat and stat.get('available'))

    def _create_fs(self):
        self._check_daemons()
        try:
            self.ceph('fs', 'volume', 'create', FS_NAME, timeout=60)
        except (RuntimeError, subprocess.TimeoutExpired):
            return False
        return True

    def _mds_active(self):
        status = self._json('fs', 'status', FS_NAME)
        return bool(status) and any(
            m.get('state') == 'active' for m in status.get('mdsmap', []))

    def stop(self):
        """SIGTERM each daemon by its PID (clients first: MDS, OSD, mgr,
        then the mon), SIGKILL what stays."""
        for process in reversed(self.processes):
            process.stop(timeout=30)
        self.processes = []
