"""A CephFS share of a real Manila, used as tether's compute service will
use it (issue #14): through the Manila API with openstacksdk at
microversion 2.82 as Nova does (a cephx rule locked against deletion and
hidden), mounted on the host with ceph-fuse, then released."""

import os
import subprocess
import tempfile
import uuid

import openstack
import pytest

from tests.functional.share import manila_helpers as mh

pytestmark = pytest.mark.slow

LOCK_REASON = 'attached by tether-compute'


_wait = mh.wait


@pytest.fixture
def sfs(sdk):
    """The shared file system proxy as a user of a project of its own."""
    return sdk('%s:%s' % (uuid.uuid4().hex, uuid.uuid4().hex))


class Mount:
    """A ceph-fuse mount of a share's path as ``client.<name>``, with a
    keyring of its own (mode 0600)."""

    def __init__(self, ceph_conf, export, name, key, workdir):
        # <mon>:<port>:/volumes/_nogroup/<...>: the path after the mons.
        self.path = export.split(':/', 1)[1]
        self.path = '/' + self.path
        self.name = name
        self.ceph_conf = ceph_conf
        os.makedirs(workdir, exist_ok=True)
        self.keyring = os.path.join(workdir, 'client.%s.keyring' % name)
        fd = os.open(self.keyring, os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                     0o600)
        with os.fdopen(fd, 'w') as f:
            f.write('[client.%s]\n\tkey = %s\n' % (name, key))
        self.dir = tempfile.mkdtemp(prefix='mnt-', dir=workdir)

    def mount(self):
        # In the foreground: the test holds its PID and stops it by that.
        self.log = open(self.keyring + '.log', 'wb')
        self.process = subprocess.Popen(
            ['ceph-fuse', '-f', '--conf', self.ceph_conf, '--keyring',
             self.keyring, '--id', self.name, '-r', self.path, self.dir],
            stdin=subprocess.DEVNULL, stdout=self.log,
            stderr=subprocess.STDOUT)
        _wait(lambda: os.path.ismount(self.dir) or
              self.process.poll() is not None, 60,
              'ceph-fuse to mount %s' % self.dir)
        assert os.path.ismount(self.dir), open(self.log.name).read()
        return self

    def unmount(self):
        if os.path.ismount(self.dir):
            try:
                subprocess.run(['umount', self.dir], timeout=30)
            except subprocess.TimeoutExpired:   # a client gone deaf
                self.process.kill()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(30)
        self.log.close()
        if os.path.ismount(self.dir):   # the process gone, the mount not
            subprocess.run(['umount', '-l', self.dir], timeout=60)
        assert not os.path.ismount(self.dir)


def test_cephfs_share_mounted_with_a_locked_cephx_rule(manila, sfs,
                                                       tmp_path):
    share = sfs.create_share(name='tether-share', share_proto='CEPHFS',
                             size=1, share_type='cephfs')
    mounts = []
    try:
        share = _wait(lambda: (s if (s := sfs.get_share(share.id)).status
                               in ('available', 'error') else None),
                      120, 'share %s to be available' % share.id)
        assert share.status == 'available'
        assert share.share_protocol == 'CEPHFS'
        exports = list(sfs.export_locations(share.id))
        assert exports
        export = next((e for e in exports if e.is_preferred),
                      exports[0]).path
        assert ':/volumes/' in export, export

        rule = sfs.create_access_rule(
            share.id, access_type='cephx', access_to='tether',
            access_level='rw', lock_visibility=True, lock_deletion=True,
            lock_reason=LOCK_REASON)
        rule = _wait(lambda: next(
            (r for r in sfs.access_rules(share)
             if r.id == rule.id and r.state in ('active', 'error')), None),
            120, 'access rule %s to be active' % rule.id)
        assert rule.state == 'active'
        assert rule.access_key, 'no cephx key for client.tether'
        locks = list(sfs.resource_locks(resource_id=rule.id))
        assert {lk.resource_action for lk in locks} == {'delete', 'show'}
        assert all(lk.lock_reason == LOCK_REASON for lk in locks)
        share_locks = list(sfs.resource_locks(resource_id=share.id))
        assert [lk.resource_action for lk in share_locks] == ['delete']
        # The deletion lock holds: the share cannot go while attached.
        with pytest.raises(openstack.exceptions.ForbiddenException):
            sfs.delete_share(share.id)

        first = Mount(manila.ceph.conf, export, 'tether', rule.access_key,
                      str(tmp_path))
        mounts.append(first.mount())
        with open(os.path.join(first.dir, 'hello.txt'), 'w') as f:
            f.write('written through ceph-fuse\n')
        second = Mount(manila.ceph.conf, export, 'tether', rule.access_key,
                       str(tmp_path / 'second'))
        mounts.append(second.mount())
        with open(os.path.join(second.dir, 'hello.txt')) as f:
            assert f.read() == 'written through ceph-fuse\n'

        # Unmount first, as a compute host detaches before it revokes:
        # revoking evicts the client, and an evicted ceph-fuse leaves
        # umount hanging.
        while mounts:
            mounts.pop().unmount()
        # Revoking a locked rule needs unrestrict (as Nova does).
        with pytest.raises(openstack.exceptions.ForbiddenException):
            sfs.delete_access_rule(rule.id, share.id)
        sfs.delete_access_rule(rule.id, share.id, unrestrict=True)
        _wait(lambda: not any(r.id == rule.id for r in
                              sfs.access_rules(share)),
              120, 'access rule %s to be gone' % rule.id)
        assert list(sfs.resource_locks(resource_id=rule.id)) == []
        assert list(sfs.resource_locks(resource_id=share.id)) == []
    finally:
        for mount in mounts:
            mount.unmount()
    sfs.delete_share(share.id)
    sfs.wait_for_delete(sfs.get_share(share.id), wait=120)
