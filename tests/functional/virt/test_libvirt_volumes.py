"""Volumes of running and stopped guests: attach, detach, extend, locks.

Real libvirtd and QEMU (TCG, no guest OS); the volume files are made with
the real qemu-img in a directory that stands in for a mounted NFS share.
"Locked" means what the volume service sees: its qemu-img cannot take the
write lock (tether.exception.ImageLocked).
"""

import os

import pytest

pytest.importorskip('libvirt', reason='libvirt-python is not installed')

from tether.drivers import qemu_img  # noqa: E402
from tether.drivers.virt.libvirt import parse  # noqa: E402
from tether.drivers.virt.power_state import PowerState  # noqa: E402
from tether.compute import exception  # noqa: E402

MiB = 1024 ** 2


def _disk(virt, instance_uuid, connection_info, inactive=False):
    guest = virt.driver.host.lookup(instance_uuid)
    return parse.find_disk(guest.xml(inactive=inactive),
                           path=virt.path(connection_info))


def test_hot_attach_locks_and_detach_unlocks(virt):
    root = virt.volume('raw')
    data = virt.volume('qcow2')
    inst, devices = virt.spawn(root)
    assert devices == ['/dev/sda']
    assert virt.locked(root)
    assert not virt.locked(data)

    assert virt.driver.attach_volume(inst.uuid, data) == '/dev/sdb'
    assert virt.locked(data)
    # The brief's probe of the qcow2 lock: qemu-img info without -U.
    with pytest.raises(exception.ImageLocked):
        qemu_img.info(virt.path(data), 'qcow2')
    for inactive in (False, True):
        disk = _disk(virt, inst.uuid, data, inactive=inactive)
        assert (disk.target, disk.bus, disk.fmt) == ('sdb', 'scsi', 'qcow2')
        assert disk.serial == data['data']['name'][len('volume-'):]
        assert not disk.readonly
    with pytest.raises(exception.VolumeAlreadyAttached, match='/dev/sdb'):
        virt.driver.attach_volume(inst.uuid, data)

    virt.driver.detach_volume(inst.uuid, data)
    # A SCSI disk is gone when the call returns: no guest OS needs to ack.
    assert not virt.locked(data)
    assert _disk(virt, inst.uuid, data) is None
    assert _disk(virt, inst.uuid, data, inactive=True) is None
    assert virt.locked(root)
    with pytest.raises(exception.VolumeAttachmentNotFound):
        virt.driver.detach_volume(inst.uuid, data)

    # The freed name is handed out again.
    assert virt.driver.attach_volume(inst.uuid, data) == '/dev/sdb'
    assert virt.driver.attach_volume(inst.uuid, virt.volume()) == '/dev/sdc'


def test_extend_grows_the_disk_of_a_running_guest(virt):
    root = virt.volume('raw', 64 * MiB)
    data = virt.volume('qcow2', 64 * MiB)
    inst, _ = virt.spawn(root, data)
    guest = virt.driver.host.lookup(inst.uuid)

    for volume, target in ((data, 'sdb'), (root, 'sda')):
        assert virt.driver.extend_volume(inst.uuid, volume, 128 * MiB)
        assert guest.block_info(target) == 128 * MiB
        assert virt.size(volume) == 128 * MiB
        assert virt.locked(volume)
    # Growing to the size it has is a no-op; shrinking is refused.
    assert virt.driver.extend_volume(inst.uuid, data, 128 * MiB)
    with pytest.raises(exception.InvalidBlockResize, match='shrinking'):
        virt.driver.extend_volume(inst.uuid, data, 64 * MiB)
    assert guest.block_info('sdb') == 128 * MiB
    assert virt.size(data) == 128 * MiB
    # A raw disk's size is its file's, read without asking QEMU: the
    # same guards.
    assert virt.driver.extend_volume(inst.uuid, root, 128 * MiB)
    with pytest.raises(exception.InvalidBlockResize, match='shrinking'):
        virt.driver.extend_volume(inst.uuid, root, 64 * MiB)
    assert guest.block_info('sda') == 128 * MiB
    assert virt.size(root) == 128 * MiB
    with pytest.raises(exception.VolumeAttachmentNotFound):
        virt.driver.extend_volume(inst.uuid, virt.volume(), 128 * MiB)


def test_stopped_guest_holds_nothing_and_is_not_resized(virt):
    root = virt.volume('raw')
    data = virt.volume('qcow2')
    inst, _ = virt.spawn(root, data)
    virt.driver.power_off(inst.uuid)
    assert virt.driver.get_info(inst.uuid).state == PowerState.SHUTDOWN
    assert not virt.locked(root)
    assert not virt.locked(data)

    assert virt.driver.extend_volume(inst.uuid, data, 128 * MiB) is False
    assert virt.size(data) == 64 * MiB

    # Attached while stopped: only the definition changes, nothing is held.
    late = virt.volume('raw')
    assert virt.driver.attach_volume(inst.uuid, late) == '/dev/sdc'
    assert not virt.locked(late)
    assert _disk(virt, inst.uuid, late, inactive=True).target == 'sdc'

    virt.driver.power_on(inst.uuid)
    assert virt.driver.get_info(inst.uuid).state == PowerState.RUNNING
    for volume in (root, data, late):
        assert virt.locked(volume)
    assert _disk(virt, inst.uuid, late).target == 'sdc'

    # Detached while stopped: gone from the definition, and not held after
    # the next start.
    virt.driver.power_off(inst.uuid)
    virt.driver.detach_volume(inst.uuid, late)
    virt.driver.power_on(inst.uuid)
    assert not virt.locked(late)
    assert virt.locked(data)


def test_read_only_attach(virt):
    root = virt.volume('raw')
    data = virt.volume('qcow2', access_mode='ro')
    inst, _ = virt.spawn(root)
    assert virt.driver.attach_volume(inst.uuid, data) == '/dev/sdb'
    for inactive in (False, True):
        assert _disk(virt, inst.uuid, data, inactive=inactive).readonly
    # A reader does not share writing: the volume service still may not
    # resize the file under it.
    assert virt.locked(data)
    virt.driver.detach_volume(inst.uuid, data)
    assert not virt.locked(data)


def test_attach_of_a_missing_file_is_a_clear_error(virt):
    inst, _ = virt.spawn(virt.volume())
    missing = virt.volume()
    path = virt.path(missing)
    os.unlink(path)
    with pytest.raises(exception.VolumeFileNotFound, match=path):
        virt.driver.attach_volume(inst.uuid, missing)
    guest = virt.driver.host.lookup(inst.uuid)
    assert [d.target for d in guest.disks()] == ['sda']
    assert [d.target for d in guest.disks(inactive=True)] == ['sda']


def test_attach_of_a_file_another_guest_holds_leaves_nothing(virt):
    shared = virt.volume('qcow2')
    holder, _ = virt.spawn(virt.volume(), shared)
    inst, _ = virt.spawn(virt.volume())
    with pytest.raises(exception.VirtError, match='write.? lock'):
        virt.driver.attach_volume(inst.uuid, shared)
    guest = virt.driver.host.lookup(inst.uuid)
    assert [d.target for d in guest.disks()] == ['sda']
    assert [d.target for d in guest.disks(inactive=True)] == ['sda']
    # The holder still has it, and the failed guest can take another disk.
    assert _disk(virt, holder.uuid, shared).target == 'sdb'
    assert virt.driver.attach_volume(inst.uuid, virt.volume()) == '/dev/sdb'


def test_a_volume_attaches_as_the_device_named_before(virt):
    root = virt.volume('raw')
    inst, devices = virt.spawn(root)
    assert virt.driver.boot_device_names(2) == ['/dev/sda', '/dev/sdb']
    assert virt.driver.next_device_name(inst.uuid) == '/dev/sdb'
    data, other = virt.volume('raw'), virt.volume('raw')
    # The compute manager names the device first (it goes to the volume
    # service as the attachment's mount point), then attaches.
    assert virt.driver.attach_volume(inst.uuid, data, '/dev/sdd') \
        == '/dev/sdd'
    assert _disk(virt, inst.uuid, data).target == 'sdd'
    assert virt.driver.next_device_name(inst.uuid) == '/dev/sdb'
    with pytest.raises(exception.DeviceInUse, match='/dev/sdd'):
        virt.driver.attach_volume(inst.uuid, other, '/dev/sdd')
    assert not virt.locked(other)
