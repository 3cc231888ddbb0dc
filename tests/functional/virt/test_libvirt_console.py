"""The serial console of the libvirt driver's guests, logged to a file in
the instance's directory (real libvirtd, virtlogd and QEMU; no guest OS).

What a guest with an OS prints there is proven in
tests/functional/compute/test_real_guest.py.
"""

import os

import pytest

pytest.importorskip('libvirt', reason='libvirt-python is not installed')

from tests.functional import libvirt_fixture  # noqa: E402
from tether.compute import exception  # noqa: E402
from tether.drivers.virt.libvirt import parse  # noqa: E402


def _log(driver, instance):
    return os.path.join(driver.instances_path, instance.uuid, 'console.log')


def test_the_console_is_logged_in_the_instance_directory(virt):
    inst, _ = virt.spawn(virt.volume('raw'))
    log = _log(virt.driver, inst)
    guest = virt.driver.host.lookup(inst.uuid)
    assert parse.console_log(guest.xml()) == log
    assert parse.console_log(guest.xml(inactive=True)) == log
    # virtlogd made it when the guest started; a guest without an OS
    # prints nothing on its serial port.
    assert os.path.isfile(log)
    assert virt.driver.get_console_output(inst.uuid) == b''

    # What is logged is what is read, while it runs and when it is off.
    with open(log, 'ab') as f:
        f.write(b'a line\r\nanother\r\n')
    assert virt.driver.get_console_output(inst.uuid) == (
        b'a line\r\nanother\r\n')
    virt.driver.power_off(inst.uuid)
    assert virt.driver.get_console_output(inst.uuid) == (
        b'a line\r\nanother\r\n')
    # A start begins a new log (append='off', as Nova's).
    virt.driver.power_on(inst.uuid)
    assert virt.driver.get_console_output(inst.uuid) == b''

    assert virt.driver.destroy(inst.uuid) is True
    assert not os.path.exists(os.path.dirname(log))
    with pytest.raises(exception.InstanceNotFound):
        virt.driver.get_console_output(inst.uuid)


def test_a_guest_without_a_logged_console(virt, libvirt_ready):
    # A driver without instances_path defines guests as tether did before
    # it logged consoles: their console is not available.
    plain = libvirt_fixture.make_driver()
    inst = virt.instance()
    plain.spawn(inst, [virt.volume('raw')])
    guest = plain.host.lookup(inst.uuid)
    assert parse.console_log(guest.xml()) is None
    with pytest.raises(exception.ConsoleNotAvailable):
        plain.get_console_output(inst.uuid)
    with pytest.raises(exception.ConsoleNotAvailable):
        virt.driver.get_console_output(inst.uuid)


def test_a_failed_start_leaves_no_instance_directory(virt):
    root = virt.volume('raw')
    first, _ = virt.spawn(root)
    # A second guest of the same file cannot take its write lock.
    second = virt.instance()
    with pytest.raises(exception.VirtError):
        virt.driver.spawn(second, [root])
    assert not os.path.exists(os.path.join(virt.driver.instances_path,
                                           second.uuid))
    assert os.path.isdir(os.path.join(virt.driver.instances_path,
                                      first.uuid))
