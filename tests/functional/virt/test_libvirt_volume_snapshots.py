"""Assisted volume snapshots in the libvirt driver: a volume's chain of
files switched and merged under a running guest (live: an external
disk-only snapshot, block commit, block pull) and under a stopped one
(its definition, qemu-img).

Real libvirtd, QEMU (TCG, no guest OS) and qemu-img; the volume service's
part (making the overlay, naming the files) is done here by hand, as the
remotefs driver does it. What the guest writes through these chains is
the end-to-end test's (tests/functional/volume/
test_assisted_snapshots.py, with the tiny Linux guest).
"""

import os

import pytest

pytest.importorskip('libvirt', reason='libvirt-python is not installed')

from tether.compute import exception  # noqa: E402
from tether.drivers import qemu_img  # noqa: E402
from tether.drivers.virt.libvirt import parse  # noqa: E402

MiB = 1024 ** 2
PATTERN = b'tether-base-data'


def _volume_id(info):
    return info['data']['name'][len('volume-'):]


def _overlay(virt, info, backing, backing_fmt, name):
    """A qcow2 overlay ``name`` on ``backing`` beside the volume's files,
    as the volume service makes it."""
    path = os.path.join(virt.share, name)
    qemu_img.create_overlay(path, backing, backing_fmt, 64 * MiB)
    virt.files.append(path)
    return name


def _chain(virt, inst, info, inactive=False):
    guest = virt.driver.host.lookup(inst.uuid)
    chain = parse.disk_chain(guest.xml(inactive=inactive), _volume_id(info))
    return [os.path.basename(f) for f in chain.files]


def _data_of(virt, name, fmt, tmp_path):
    out = str(tmp_path / ('%s.raw' % name))
    qemu_img.export(os.path.join(virt.share, name), fmt, out, 'raw',
                    force_share=True)
    with open(out, 'rb') as f:
        return f.read(len(PATTERN))


def _volume_with_data(virt):
    info = virt.volume('raw', 64 * MiB)
    with open(virt.path(info), 'r+b') as f:
        f.write(PATTERN)
    return info


def test_snapshots_of_a_running_guest_are_switched_and_merged(virt, tmp_path):
    root = virt.volume('raw')
    data = _volume_with_data(virt)
    inst, _ = virt.spawn(root, data)
    vid, base = _volume_id(data), data['data']['name']
    drv = virt.driver

    s1 = _overlay(virt, data, base, 'raw', base + '.s1')
    assert drv.volume_snapshot_create(inst.uuid, vid, s1) is True
    assert _chain(virt, inst, data) == [s1, base]
    assert _chain(virt, inst, data, inactive=True)[0] == s1
    # QEMU writes the overlay now: the volume service's qemu-img cannot.
    with pytest.raises(exception.ImageLocked):
        qemu_img.info(os.path.join(virt.share, s1), 'qcow2')
    # Asked again (a lost answer): nothing more.
    assert drv.volume_snapshot_create(inst.uuid, vid, s1) is False
    # Only the root disk is left alone; it is not in the chain.
    assert _chain(virt, inst, root) == [root['data']['name']]

    s2 = _overlay(virt, data, s1, 'qcow2', base + '.s2')
    assert drv.volume_snapshot_create(inst.uuid, vid, s2) is True
    assert _chain(virt, inst, data) == [s2, s1, base]

    # Commit s1 (a backing file) into base: s2 is backed by base.
    assert drv.volume_snapshot_delete(inst.uuid, vid, s1, base) is True
    assert _chain(virt, inst, data) == [s2, base]
    assert qemu_img.info(os.path.join(virt.share, s2), 'qcow2',
                         force_share=True).backing_file == base
    assert drv.volume_snapshot_delete(inst.uuid, vid, s1, base) is False

    # Pull s2 into the file written (s3), backed by base then.
    s3 = _overlay(virt, data, s2, 'qcow2', base + '.s3')
    drv.volume_snapshot_create(inst.uuid, vid, s3)
    assert drv.volume_snapshot_delete(inst.uuid, vid, base, None) is True
    assert _chain(virt, inst, data) == [s3, base]
    assert drv.volume_snapshot_delete(inst.uuid, vid, base, None) is False

    # Pull everything: s3 stands alone, with the base's data.
    assert drv.volume_snapshot_delete(inst.uuid, vid, None, None) is True
    assert _chain(virt, inst, data) == [s3]
    assert _chain(virt, inst, data, inactive=True) == [s3]
    assert qemu_img.info(os.path.join(virt.share, s3), 'qcow2',
                         force_share=True).backing_file is None
    assert drv.volume_snapshot_delete(inst.uuid, vid, None, None) is False
    # Stopped (QEMU keeps the qcow2's tables in memory while it runs).
    drv.power_off(inst.uuid)
    assert _data_of(virt, s3, 'qcow2', tmp_path) == PATTERN


def test_snapshots_of_a_stopped_guest_change_its_definition(virt, tmp_path):
    root = virt.volume('raw')
    data = _volume_with_data(virt)
    inst, _ = virt.spawn(root, data, power_on=False)
    vid, base = _volume_id(data), data['data']['name']
    drv = virt.driver

    s1 = _overlay(virt, data, base, 'raw', base + '.s1')
    s2 = _overlay(virt, data, s1, 'qcow2', base + '.s2')
    assert drv.volume_snapshot_create(inst.uuid, vid, s1) is True
    assert drv.volume_snapshot_create(inst.uuid, vid, s2) is True
    assert _chain(virt, inst, data, inactive=True)[0] == s2

    # Commit s1 into base with qemu-img: s2 is backed by base.
    assert drv.volume_snapshot_delete(inst.uuid, vid, s1, base) is True
    assert qemu_img.info(os.path.join(virt.share, s2),
                         'qcow2').backing_file == base
    assert drv.volume_snapshot_delete(inst.uuid, vid, s1, base) is False

    # The guest starts on the chain the files say.
    drv.power_on(inst.uuid)
    assert _chain(virt, inst, data) == [s2, base]
    drv.power_off(inst.uuid)

    # Pull everything with qemu-img: s2 holds the base's data alone.
    assert drv.volume_snapshot_delete(inst.uuid, vid, None, None) is True
    assert qemu_img.info(os.path.join(virt.share, s2),
                         'qcow2').backing_file is None
    assert _data_of(virt, s2, 'qcow2', tmp_path) == PATTERN
    drv.power_on(inst.uuid)
    assert _chain(virt, inst, data) == [s2]


def test_what_does_not_fit_the_chain_is_refused(virt):
    root = virt.volume('raw')
    data = virt.volume('raw')
    inst, _ = virt.spawn(root, data)
    vid, base = _volume_id(data), data['data']['name']
    drv = virt.driver

    for name in ('../' + base, '.', '..', 'a/b', ''):
        with pytest.raises(exception.VolumeChainMismatch):
            drv.volume_snapshot_create(inst.uuid, vid, name)
    with pytest.raises(exception.VolumeFileNotFound):
        drv.volume_snapshot_create(inst.uuid, vid, base + '.missing')
    with pytest.raises(exception.VolumeAttachmentNotFound):
        drv.volume_snapshot_create(inst.uuid, 'not-attached', base + '.s1')

    s1 = _overlay(virt, data, base, 'raw', base + '.s1')
    drv.volume_snapshot_create(inst.uuid, vid, s1)
    s2 = _overlay(virt, data, s1, 'qcow2', base + '.s2')
    drv.volume_snapshot_create(inst.uuid, vid, s2)
    # The file written is pulled into, not committed; files must follow
    # each other; names must be in the chain.
    with pytest.raises(exception.VolumeChainMismatch, match='pulled into'):
        drv.volume_snapshot_delete(inst.uuid, vid, s2, s1)
    with pytest.raises(exception.VolumeChainMismatch, match='not the '
                       'backing file'):
        drv.volume_snapshot_delete(inst.uuid, vid, s1, s2)
    with pytest.raises(exception.VolumeChainMismatch, match='neither'):
        drv.volume_snapshot_delete(inst.uuid, vid, base + '.x', base + '.y')
    with pytest.raises(exception.VolumeChainMismatch, match='not a backing'):
        drv.volume_snapshot_delete(inst.uuid, vid, base + '.x', None)
    with pytest.raises(exception.VolumeChainMismatch):
        drv.volume_snapshot_delete(inst.uuid, vid, '../' + s1, base)
    # Nothing of that changed the chain.
    assert _chain(virt, inst, data) == [s2, s1, base]
