"""Manila shares through the libvirt driver (issue #14): mounted on the
host, given to guests over virtio-fs, with real libvirt, QEMU, virtiofsd
and the tiny Linux guest of tools/guest/, which mounts a tag when told
(``tether-guest share TAG``) and reads and writes through it.

This host has no NFS client, so the one function that runs ``mount -t
nfs`` (``shares.mount_nfs``) is replaced by a bind mount of the export's
path, a local directory: everything around it (the mount point, the
checks, idempotency, the unmount) is the driver's own. The CephFS mounts,
with a real Ceph, are tests/functional/share/test_host_mounts.py's.
"""

import os
import shutil
import subprocess
import time
import uuid
from unittest import mock

import pytest

pytest.importorskip('libvirt', reason='libvirt-python is not installed')

from tests.functional import guest_console  # noqa: E402
from tests.functional import libvirt_fixture  # noqa: E402
from tether.compute import share_exception  # noqa: E402
from tether.drivers.virt import driver as virt_driver  # noqa: E402
from tether.drivers.virt.libvirt import host as libvirt_host  # noqa: E402
from tether.drivers.virt.libvirt import parse  # noqa: E402
from tether.drivers.virt.libvirt import shares  # noqa: E402

needs_virtiofsd = pytest.mark.skipif(
    not libvirt_host.virtiofsd_available(),
    reason='virtiofsd is not installed (qemu-system-common)')


def _bind_instead_of_nfs(share_id, export, mount_point):
    """What ``mount -t nfs HOST:/PATH MOUNT_POINT`` would make, here: PATH
    (a local directory) bind-mounted on MOUNT_POINT."""
    _host, _, path = export.partition(':')
    subprocess.run(['mount', '--bind', path, mount_point], check=True,
                   timeout=30)


@pytest.fixture
def nfs_by_bind():
    # The process edge where the NFS client would run (see the module's
    # docstring); autospec: the driver calls it as the real one.
    with mock.patch.object(shares, 'mount_nfs', autospec=True,
                           side_effect=_bind_instead_of_nfs) as mounted:
        yield mounted


@pytest.fixture
def dirs():
    """New directories QEMU's helpers can reach; removed after the test
    (whatever is still mounted under them is unmounted first)."""
    made = []

    def make(prefix='tether-share-'):
        path = libvirt_fixture.share_dir(prefix)
        made.append(path)
        return path
    yield make
    for path in made:
        with open('/proc/self/mounts') as f:
            mounted = [line.split()[1] for line in f
                       if line.split()[1].startswith(path + '/')]
        for point in sorted(mounted, reverse=True):
            subprocess.run(['umount', '-l', point], timeout=30)
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def share_driver(libvirt_ready, dirs):
    """A driver whose instances path (root disks, console logs) and share
    mount points QEMU and virtiofsd can reach."""
    drv = libvirt_fixture.make_driver(
        dirs('tether-instances-'),
        share_mount_point_base=os.path.join(dirs('tether-mnt-'), 'shares'))
    drv.init_host()
    return drv


def _root_image(path):
    """The tiny guest's image, copied by ``fetch`` (the image API's part
    is tested elsewhere)."""
    def fetch(target):
        shutil.copyfile(path, target)
        return 'raw'
    return virt_driver.RootImage(image_id=str(uuid.uuid4()), size_gb=0,
                                 fetch=fetch)


def _nfs(share_id, exported):
    return virt_driver.ShareMount(share_id=share_id, protocol='NFS',
                                  export='nfs.example.org:' + exported)


def _write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def _read(path):
    with open(path) as f:
        return f.read()


# Mounts on the host ----------------------------------------------------------

def test_an_nfs_share_is_mounted_once_and_unmounted_once(
        share_driver, nfs_by_bind, dirs):
    exported = dirs('tether-export-')
    _write(os.path.join(exported, 'on-the-server.txt'), 'hello\n')
    share_id = str(uuid.uuid4())
    share = _nfs(share_id, exported)
    path = share_driver.share_mount_path(share_id)
    assert path == os.path.join(share_driver.conf.share_mount_point_base,
                                share_id)

    assert share_driver.mount_share(share) == path
    # (os.path.ismount cannot tell a bind mount within one file system.)
    assert shares.is_mounted(path)
    assert _read(os.path.join(path, 'on-the-server.txt')) == 'hello\n'
    # Mounted already: the same directory, no second mount.
    assert share_driver.mount_share(share) == path
    nfs_by_bind.assert_called_once_with(share_id, share.export, path)

    # In use (a guest's virtiofsd would hold it so): it stays mounted,
    # and the caller is told.
    with open(os.path.join(path, 'on-the-server.txt')) as held:
        with pytest.raises(share_exception.ShareUnmountFailed,
                           match='Share %s could not be unmounted: '
                                 '.*busy' % share_id):
            share_driver.umount_share(share_id)
        assert held.read() == 'hello\n'
    assert shares.is_mounted(path)

    assert share_driver.umount_share(share_id) is True
    assert not os.path.exists(path)
    assert share_driver.umount_share(share_id) is False
    # The server's files are where they were.
    assert os.listdir(exported) == ['on-the-server.txt']


@pytest.mark.skipif(os.path.exists('/sbin/mount.nfs'),
                    reason='an NFS client would look for the server for '
                           'minutes')
def test_an_nfs_mount_that_fails_says_why(share_driver):
    share_id = str(uuid.uuid4())
    # The real mount -t nfs, on a host without an NFS client: mount says
    # it has no helper for the type.
    with pytest.raises(share_exception.ShareMountFailed,
                       match='Share %s could not be mounted: .+' % share_id):
        share_driver.mount_share(_nfs(share_id, '/srv/nothing'))
    assert not os.path.exists(share_driver.share_mount_path(share_id))


# Guests ----------------------------------------------------------------------

@needs_virtiofsd
def test_a_guest_gets_exactly_its_shares_at_each_start(
        share_driver, nfs_by_bind, virt, dirs, guest_images):
    drv = share_driver
    exported = dirs('tether-export-')
    _write(os.path.join(exported, 'from-host.txt'), 'written on the host\n')
    dir_a = drv.mount_share(_nfs(str(uuid.uuid4()), exported))
    dir_b = dirs('tether-share-b-')
    _write(os.path.join(dir_b, 'b.txt'), 'share b\n')
    inst = virt.instance(memory_mb=128)

    drv.spawn(inst, [], root_image=_root_image(guest_images['tether-tiny-a']),
              shares=[virt_driver.GuestShare('share-a', dir_a)])
    guest = drv.host.lookup(inst.uuid)
    defined = guest.xml(inactive=True)
    assert parse.filesystems(defined) == [(dir_a, 'share-a')]
    # virtio-fs needs shared memory; without file-backed memory, memfd.
    assert parse.memory_backing(guest.xml()) == ('memfd', True)
    console = guest_console.DriverConsole(drv, inst.uuid)
    console.wait_up('tether-tiny-a')
    rc, out = console.command('tether-guest share share-a')
    assert (rc, out) == (0, ['mounted /mnt/share-a'])
    assert console.command('cat /mnt/share-a/from-host.txt') == (
        0, ['written on the host'])
    assert console.command(
        'echo written in the guest > /mnt/share-a/from-guest.txt')[0] == 0
    # Through the mount, onto the exported directory.
    assert _read(os.path.join(exported, 'from-guest.txt')) == \
        'written in the guest\n'

    # Stopped, the share detached and another attached: at the next
    # start the guest has the new one and not the old.
    drv.power_off(inst.uuid)
    drv.power_on(inst.uuid, shares=[virt_driver.GuestShare('share-b',
                                                           dir_b)])
    assert parse.filesystems(guest.xml(inactive=True)) == [(dir_b,
                                                            'share-b')]
    assert parse.filesystems(guest.xml()) == [(dir_b, 'share-b')]
    console.wait_up('tether-tiny-a')
    assert console.command('tether-guest share share-b') == (
        0, ['mounted /mnt/share-b'])
    assert console.command('cat /mnt/share-b/b.txt') == (0, ['share b'])
    rc, out = console.command('tether-guest share share-a')
    assert rc == 1, out

    # No shares: no filesystems and QEMU's own memory again; the disks
    # and the logged console are as they were.
    drv.power_off(inst.uuid)
    drv.power_on(inst.uuid)
    assert parse.filesystems(guest.xml(inactive=True)) == []
    assert parse.filesystems(guest.xml()) == []
    assert parse.memory_backing(guest.xml(inactive=True)) is None
    now = guest.xml(inactive=True)
    assert parse.disks(now) == parse.disks(defined)
    assert parse.console_log(now) == parse.console_log(defined)

    # A reboot starts the guest with the shares it is given, too.
    drv.reboot(inst.uuid, shares=[virt_driver.GuestShare('share-a', dir_a)])
    assert parse.filesystems(guest.xml()) == [(dir_a, 'share-a')]
    assert parse.memory_backing(guest.xml()) == ('memfd', True)
    # Its virtiofsd holds the mount in a namespace of its own, where the
    # host's umount does not reach: the driver refuses while it runs.
    share_a = os.path.basename(dir_a)
    with pytest.raises(share_exception.ShareUnmountFailed,
                       match='running guests use it: %s' % inst.uuid):
        drv.umount_share(share_a)
    assert shares.is_mounted(dir_a)
    drv.destroy(inst.uuid)
    assert drv.umount_share(share_a) is True


@needs_virtiofsd
def test_shares_on_file_backed_memory(libvirt_ready, virt, dirs):
    """With ``file_backed_memory`` the guest's memory is a shared file,
    shares or not (what the host's COMPUTE_MEM_BACKING_FILE trait says)."""
    drv = libvirt_fixture.make_driver(file_backed_memory=1024)
    share = dirs()
    inst = virt.instance()
    drv.spawn(inst, [virt.volume()],
              shares=[virt_driver.GuestShare('fb-share', share)])
    guest = drv.host.lookup(inst.uuid)
    live = guest.xml()
    assert parse.memory_backing(live) == ('file', True)
    assert parse.filesystems(live) == [(share, 'fb-share')]
    procs = subprocess.run(['pgrep', '-af', 'virtiofsd'],
                           capture_output=True, text=True).stdout
    assert 'source=%s' % share in procs

    drv.power_off(inst.uuid)
    drv.power_on(inst.uuid)
    live = guest.xml()
    assert parse.memory_backing(live) == ('file', True)
    assert parse.filesystems(live) == []
    # virtiofsd ends with the guest's QEMU (and has none now).
    deadline = time.monotonic() + 10
    while 'source=%s' % share in subprocess.run(
            ['pgrep', '-af', 'virtiofsd'], capture_output=True,
            text=True).stdout:
        assert time.monotonic() < deadline, 'virtiofsd outlived its guest'
        time.sleep(0.2)
