"""Guests of the libvirt driver: spawn, power, reboot, delete, the host.

Real libvirtd and QEMU (TCG, no guest OS); the volume files are made with
the real qemu-img in a directory that stands in for a mounted NFS share.
"""

import concurrent.futures
import os
import subprocess
import threading
import time

import pytest

pytest.importorskip('libvirt', reason='libvirt-python is not installed')

import os_traits  # noqa: E402

from tests.functional import libvirt_fixture  # noqa: E402
from tether.drivers.virt.libvirt import config  # noqa: E402
from tether.drivers.virt.libvirt import host as libvirt_host  # noqa: E402
from tether.drivers.virt.libvirt import parse  # noqa: E402
from tether.drivers.virt.power_state import PowerState  # noqa: E402
from tether.compute import exception  # noqa: E402


def _qemu_pid(name):
    with open('/run/libvirt/qemu/%s.pid' % name) as f:
        return int(f.read())


def _wait_for(predicate, timeout=10, what='condition'):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError('timed out waiting for %s' % what)
        time.sleep(0.02)


def test_spawn_runs_the_guest_and_destroy_removes_it(virt):
    root = virt.volume('raw')
    inst, devices = virt.spawn(root)
    assert devices == ['/dev/sda']
    info = virt.driver.get_info(inst.uuid)
    assert (info.uuid, info.name, info.state) == (
        inst.uuid, inst.name, PowerState.RUNNING)
    assert info in virt.driver.list_instances()
    assert virt.locked(root)

    assert virt.driver.destroy(inst.uuid) is True
    assert not virt.locked(root)
    with pytest.raises(exception.InstanceNotFound,
                       match='%s.*Domain not found' % inst.uuid):
        virt.driver.get_info(inst.uuid)
    with pytest.raises(exception.InstanceNotFound):
        virt.driver.power_on(inst.uuid)
    assert inst.uuid not in [i.uuid for i in virt.driver.list_instances()]
    assert virt.driver.destroy(inst.uuid) is False


def test_spawn_of_an_existing_instance_is_refused(virt):
    root = virt.volume()
    inst, _ = virt.spawn(root)
    with pytest.raises(exception.InstanceExists):
        virt.driver.spawn(inst, [root, virt.volume()])
    guest = virt.driver.host.lookup(inst.uuid)
    assert [d.target for d in guest.disks(inactive=True)] == ['sda']
    assert guest.power_state() == PowerState.RUNNING


def test_a_guest_that_cannot_start_leaves_nothing_behind(virt):
    root = virt.volume('qcow2')
    virt.spawn(root)
    second = virt.instance()
    with pytest.raises(exception.VirtError, match='write.? lock'):
        virt.driver.spawn(second, [root])
    with pytest.raises(exception.InstanceNotFound):
        virt.driver.get_info(second.uuid)


def test_spawn_stopped_then_power_on_and_off(virt):
    root = virt.volume()
    inst, _ = virt.spawn(root, power_on=False)
    assert virt.driver.get_info(inst.uuid).state == PowerState.SHUTDOWN
    assert not virt.locked(root)
    virt.driver.power_on(inst.uuid)
    virt.driver.power_on(inst.uuid)   # already on: nothing to do
    assert virt.locked(root)
    # No guest OS answers the ACPI request: destroyed after the timeout.
    virt.driver.power_off(inst.uuid, timeout=0.3)
    assert virt.driver.get_info(inst.uuid).state == PowerState.SHUTDOWN
    assert not virt.locked(root)
    virt.driver.power_off(inst.uuid)   # already off: nothing to do


def test_reboot_runs_a_new_qemu_with_the_same_disks(virt):
    root = virt.volume()
    data = virt.volume('qcow2')
    inst, _ = virt.spawn(root)
    virt.driver.attach_volume(inst.uuid, data)
    before = _qemu_pid(inst.name)
    virt.driver.reboot(inst.uuid)
    assert virt.driver.get_info(inst.uuid).state == PowerState.RUNNING
    assert _qemu_pid(inst.name) != before
    assert virt.locked(root) and virt.locked(data)


def test_five_guests_start_concurrently(virt):
    roots = [virt.volume() for _ in range(5)]
    instances = [virt.instance() for _ in range(5)]
    with concurrent.futures.ThreadPoolExecutor(5) as pool:
        devices = list(pool.map(
            lambda pair: virt.driver.spawn(pair[0], [pair[1]]),
            zip(instances, roots)))
    assert devices == [['/dev/sda']] * 5
    for inst, root in zip(instances, roots):
        assert virt.driver.get_info(inst.uuid).state == PowerState.RUNNING
        assert virt.locked(root)
    with concurrent.futures.ThreadPoolExecutor(5) as pool:
        assert all(pool.map(virt.driver.destroy,
                            [i.uuid for i in instances]))


def test_a_define_does_not_wait_for_guests_starting_in_other_threads(virt):
    # libvirtd serves at most 5 calls of one connection at a time: had the
    # threads one connection, the define would wait until starts ended.
    count = 6
    roots = [virt.volume() for _ in range(count)]
    instances = [virt.instance() for _ in range(count)]
    host = virt.driver.host
    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        spawns = [pool.submit(virt.driver.spawn, inst, [root])
                  for inst, root in zip(instances, roots)]
        # Every guest is defined: its thread is starting it (or done).
        _wait_for(lambda: all(_defined(host, i.uuid) for i in instances),
                  timeout=60, what='the six defines')
        running = sum(not s.done() for s in spawns)
        other = virt.instance()
        guest = host.define(config.to_xml(config.domain(
            name=other.name, uuid=other.uuid, memory_mib=64, vcpus=1)),
            other.uuid)
        still = sum(not s.done() for s in spawns)
        assert [s.result() for s in spawns] == [['/dev/sda']] * count
    assert guest.power_state() == PowerState.SHUTDOWN
    # No start ended while the define ran.
    assert (running, still) == (count, count)
    # Each thread has its own connection to libvirtd.
    conns = []
    both = threading.Barrier(2)

    def connect():
        conns.append(host.get_connection())
        both.wait(timeout=30)
    threads = [threading.Thread(target=connect) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(conns) == 2 and conns[0] is not conns[1]
    assert host.get_connection() is host.get_connection()


def _defined(host, instance_uuid):
    try:
        host.lookup(instance_uuid)
    except exception.InstanceNotFound:
        return False
    return True


def _client_ids_of(pid):
    out = subprocess.run(['virt-admin', 'client-list', 'libvirtd'],
                         check=True, capture_output=True, text=True).stdout
    ids = []
    for line in out.splitlines()[2:]:
        if not line.strip():
            continue
        client = line.split()[0]
        info = subprocess.run(
            ['virt-admin', 'client-info', 'libvirtd', client],
            capture_output=True, text=True).stdout
        if 'unix_process_id: %d\n' % pid in info + '\n':
            ids.append(client)
    return ids


def test_a_dropped_connection_is_opened_again(libvirt_ready):
    drv = libvirt_fixture.make_driver()
    old = drv.host.get_connection()
    clients = _client_ids_of(os.getpid())
    assert clients
    for client in clients:
        subprocess.run(['virt-admin', 'client-disconnect', 'libvirtd',
                        client], check=True, capture_output=True)
    # The event loop sees the socket close; the next call opens another.
    _wait_for(lambda: old in drv.host._dead, what='the close callback')
    assert drv.list_instances() is not None
    assert drv.host.get_connection() is not old


def test_an_unreachable_hypervisor_is_a_clear_error(libvirt_ready):
    uri = 'qemu+unix:///system?socket=/nonexistent/libvirt-sock'
    host = libvirt_host.Host(uri)
    with pytest.raises(exception.HypervisorUnavailable,
                       match='nonexistent'):
        host.versions()


def test_host_traits_and_stats(driver):
    traits = driver.get_traits()
    assert os_traits.COMPUTE_VOLUME_EXTEND in traits
    assert os_traits.COMPUTE_VOLUME_MULTI_ATTACH not in traits
    assert os_traits.COMPUTE_MEM_BACKING_FILE not in traits
    assert (os_traits.COMPUTE_STORAGE_VIRTIO_FS in traits) == \
        libvirt_host.virtiofsd_available()
    file_backed = libvirt_fixture.make_driver(file_backed_memory=1024)
    assert os_traits.COMPUTE_MEM_BACKING_FILE in file_backed.get_traits()

    stats = driver.get_host_stats()
    assert stats.vcpus == os.cpu_count()
    with open('/proc/meminfo') as f:
        total_kib = int(f.readline().split()[1])
    assert abs(stats.memory_mb - total_kib // 1024) <= 1
    assert 0 < stats.memory_mb_free <= stats.memory_mb
    assert stats.hypervisor_type == 'QEMU'
    assert stats.libvirt_version >= (8, 0, 0)
    assert driver.get_volume_connector()['host'] == 'test-host'


@pytest.mark.skipif(not libvirt_host.virtiofsd_available(),
                    reason='virtiofsd is not installed (qemu-system-common)')
def test_virtiofs_share_on_file_backed_memory(virt):
    shared_dir = libvirt_fixture.share_dir()
    inst = virt.instance()
    xml = config.to_xml(config.domain(
        name=inst.name, uuid=inst.uuid, memory_mib=64, vcpus=1,
        disks=[config.Disk(path=virt.path(virt.volume()), fmt='raw',
                           target='sda')],
        filesystems=[config.filesystem(shared_dir, 'share0')],
        memory_backing=config.memory_backing('file', shared=True)))
    guest = virt.driver.host.define(xml, inst.uuid)
    try:
        guest.start()
        assert guest.power_state() == PowerState.RUNNING
        assert parse.filesystems(guest.xml()) == [(shared_dir, 'share0')]
        procs = subprocess.run(['pgrep', '-af', 'virtiofsd'],
                               capture_output=True, text=True).stdout
        assert 'source=%s' % shared_dir in procs
    finally:
        guest.delete()
        os.rmdir(shared_dir)
