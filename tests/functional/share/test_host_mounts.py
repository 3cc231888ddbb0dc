"""A CephFS share of a real Manila, mounted on the compute host by the
libvirt driver (``mount_share``, ``umount_share``) as a compute service
does before it gives the share to a guest over virtio-fs (issue #14).

The share and its cephx access rule are made through Manila's API, as in
test_manila_ceph.py; the driver gets what the compute service will give
it (the export location, the rule's ``access_to`` and ``access_key``) and
nothing of the deployment's own Ceph configuration.
"""

import base64
import errno
import os
import shutil
import signal
import stat
import subprocess
import time
import uuid

import pytest

from tests.functional.share import manila_helpers as mh

from tests.functional import guest_console
from tests.functional import libvirt_fixture
from tether.compute import share_exception
from tether.drivers.virt import driver as virt_driver

pytestmark = pytest.mark.slow


_wait = mh.wait


@pytest.fixture
def sfs(sdk):
    """Manila's API as a user of a project of its own."""
    return sdk(mh.token())


@pytest.fixture
def cephfs_share(sfs):
    """A CEPHFS share with a cephx rule: ``(share, export, rule)``;
    the rule and the share are removed after the test."""
    share = sfs.create_share(name='tether-host-mount', share_proto='CEPHFS',
                             size=1, share_type='cephfs')
    rule = None
    try:
        share = _wait(lambda: (s if (s := sfs.get_share(share.id)).status
                               in ('available', 'error') else None),
                      120, 'share %s to be available' % share.id)
        assert share.status == 'available'
        exports = list(sfs.export_locations(share.id))
        export = next((e for e in exports if e.is_preferred),
                      exports[0]).path
        rule = sfs.create_access_rule(
            share.id, access_type='cephx',
            access_to='tether-%s' % uuid.uuid4().hex[:8], access_level='rw')
        rule = _wait(lambda: next(
            (r for r in sfs.access_rules(share)
             if r.id == rule.id and r.state in ('active', 'error')), None),
            120, 'access rule %s to be active' % rule.id)
        assert rule.state == 'active' and rule.access_key
        yield share, export, rule
    finally:
        if rule is not None:
            sfs.delete_access_rule(rule.id, share.id)
            _wait(lambda: not any(r.id == rule.id
                                  for r in sfs.access_rules(share)),
                  120, 'access rule %s to be gone' % rule.id)
        sfs.delete_share(share.id)
        sfs.wait_for_delete(sfs.get_share(share.id), wait=120)


@pytest.fixture
def drivers(tmp_path):
    """``make(name)``: a libvirt driver whose shares are mounted under
    ``tmp_path/name`` (and, ``with_guests``, whose guests' root disks are
    where QEMU can read them); whatever is left is removed after."""
    libvirt_fixture.ensure_libvirt()   # umount_share asks libvirt
    made = []

    def make(name, with_guests=False):
        instances = (libvirt_fixture.share_dir('tether-instances-')
                     if with_guests else None)
        drv = libvirt_fixture.make_driver(
            instances, share_mount_point_base=str(tmp_path / name))
        made.append(drv)
        return drv
    yield make
    libvirt_fixture.remove_domains(libvirt_fixture.domain_prefix('hm'))
    for drv in made:
        if drv.instances_path:
            shutil.rmtree(drv.instances_path, ignore_errors=True)
        base = drv.conf.share_mount_point_base
        with open('/proc/self/mounts') as f:
            left = [line.split()[1] for line in f
                    if line.split()[1].startswith(base + '/')]
        for point in left:
            subprocess.run(['umount', '-l', point], timeout=30)


def _ceph_fuse_of(path):
    """PIDs of the ceph-fuse processes that mount ``path``."""
    out = subprocess.run(['pgrep', '-f', 'ceph-fuse .* %s$' % path],
                         capture_output=True, text=True).stdout
    return out.split()


def _another_key(key):
    """A cephx key of the same shape as ``key`` (a header, then a 16-byte
    secret) whose secret differs in every byte."""
    data = base64.b64decode(key)
    return base64.b64encode(
        data[:-16] + bytes(b ^ 0xff for b in data[-16:])).decode()


def _command_lines():
    lines = []
    for pid in os.listdir('/proc'):
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                lines.append(f.read().decode('utf-8', 'replace'))
        except (OSError, ValueError):
            pass
    return lines


def test_the_driver_mounts_a_cephfs_share_with_its_cephx_rule(
        cephfs_share, drivers, caplog):
    caplog.set_level('DEBUG')
    share, export, rule = cephfs_share
    mount = virt_driver.ShareMount(
        share_id=share.id, protocol='CEPHFS', export=export,
        access_to=rule.access_to, access_key=rule.access_key)
    key = rule.access_key
    first, second = drivers('first'), drivers('second')

    path = first.mount_share(mount)
    assert path == first.share_mount_path(share.id)
    assert len(_ceph_fuse_of(path)) == 1
    base = first.conf.share_mount_point_base
    keyring = os.path.join(base, '.keyrings', share.id + '.keyring')
    assert stat.S_IMODE(os.stat(keyring).st_mode) == 0o600
    # The key is in the keyring and nowhere else: not on a command line,
    # not in a log line.
    assert not any(key in line for line in _command_lines())
    assert key not in caplog.text and key not in repr(mount)
    # Mounted already: no second client.
    assert first.mount_share(mount) == path
    assert len(_ceph_fuse_of(path)) == 1

    # A second client (another host, as far as Ceph can tell) sees what
    # the first wrote, and the other way round.
    with open(os.path.join(path, 'from-first.txt'), 'w') as f:
        f.write('written through the first mount\n')
    other = second.mount_share(mount)
    assert other != path
    with open(os.path.join(other, 'from-first.txt')) as f:
        assert f.read() == 'written through the first mount\n'
    with open(os.path.join(other, 'from-second.txt'), 'w') as f:
        f.write('and back\n')
    with open(os.path.join(path, 'from-second.txt')) as f:
        assert f.read() == 'and back\n'

    # ceph-fuse killed: the mount stays, and every access fails until
    # the share is mounted again.
    [pid] = _ceph_fuse_of(path)
    os.kill(int(pid), signal.SIGKILL)
    _wait(lambda: not _ceph_fuse_of(path), 30, 'ceph-fuse to die')
    with pytest.raises(OSError) as info:
        os.stat(os.path.join(path, 'from-first.txt'))
    assert info.value.errno == errno.ENOTCONN
    assert first.mount_share(mount) == path
    with open(os.path.join(path, 'from-second.txt')) as f:
        assert f.read() == 'and back\n'

    # A key Ceph does not know: refused at once, nothing left behind, the
    # key in no message.
    wrong = virt_driver.ShareMount(
        share_id=share.id, protocol='CEPHFS', export=export,
        access_to=rule.access_to, access_key=_another_key(key))
    third = drivers('third')
    started = time.monotonic()
    with pytest.raises(share_exception.ShareMountFailed) as info:
        third.mount_share(wrong)
    assert time.monotonic() - started < 20
    assert wrong.access_key not in str(info.value)
    assert key not in str(info.value)
    assert not os.path.exists(os.path.join(
        third.conf.share_mount_point_base, '.keyrings',
        share.id + '.keyring'))
    assert not os.path.exists(third.share_mount_path(share.id))

    assert first.umount_share(share.id) is True
    assert not os.path.exists(path)
    assert not os.path.exists(keyring)
    _wait(lambda: not _ceph_fuse_of(path), 30, 'ceph-fuse to end')
    assert first.umount_share(share.id) is False
    # The other client still has the files.
    assert sorted(os.listdir(other)) == ['from-first.txt',
                                         'from-second.txt']
    assert second.umount_share(share.id) is True
    assert key not in caplog.text


def test_a_guest_reads_and_writes_a_cephfs_share(cephfs_share, drivers,
                                                 guest_images):
    """The whole way: Ceph, ceph-fuse on the host, virtiofsd, the tiny
    guest's virtio-fs mount."""
    share, export, rule = cephfs_share
    drv = drivers('guest', with_guests=True)
    path = drv.mount_share(virt_driver.ShareMount(
        share_id=share.id, protocol='CEPHFS', export=export,
        access_to=rule.access_to, access_key=rule.access_key))
    with open(os.path.join(path, 'from-host.txt'), 'w') as f:
        f.write('through ceph-fuse\n')

    def fetch(target):
        shutil.copyfile(guest_images['tether-tiny-a'], target)
        return 'raw'
    inst = virt_driver.Instance(uuid=str(uuid.uuid4()),
                                name=libvirt_fixture.domain_name('hm'),
                                memory_mb=128, vcpus=1)
    drv.spawn(inst, [], root_image=virt_driver.RootImage(
        image_id=str(uuid.uuid4()), size_gb=0, fetch=fetch),
        shares=[virt_driver.GuestShare('manila', path)])
    try:
        console = guest_console.DriverConsole(drv, inst.uuid)
        console.wait_up('tether-tiny-a')
        assert console.command('tether-guest share manila') == (
            0, ['mounted /mnt/manila'])
        assert console.command('cat /mnt/manila/from-host.txt') == (
            0, ['through ceph-fuse'])
        assert console.command(
            'echo from the guest > /mnt/manila/from-guest.txt')[0] == 0
        with open(os.path.join(path, 'from-guest.txt')) as f:
            assert f.read() == 'from the guest\n'
        # virtiofsd holds the share where the host's umount cannot see.
        with pytest.raises(share_exception.ShareUnmountFailed,
                           match='running guests use it'):
            drv.umount_share(share.id)
    finally:
        drv.destroy(inst.uuid)
    assert drv.umount_share(share.id) is True
    _wait(lambda: not _ceph_fuse_of(path), 30, 'ceph-fuse to end')
