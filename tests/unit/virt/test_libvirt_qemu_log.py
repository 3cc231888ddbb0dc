"""A guest that cannot start: its error has QEMU's reason, from QEMU's log.

libvirt answers a start whose QEMU ended at once with QEMU's words most
of the time, and with "failed to connect to monitor socket: Connection
refused" when QEMU was gone before libvirt reached its monitor (seen on
a loaded CI machine). The logs below are what libvirt 9 and QEMU 7.2
write on this machine; the domain is a stand-in for libvirt's (a process
edge) that fails its start with a given message.
"""

import libvirt
import pytest

from tether.compute import exception
from tether.drivers.virt.libvirt import guest as libvirt_guest
from tether.drivers.virt.libvirt import host as libvirt_host
from tether.drivers.virt.libvirt import qemu_log

NAME = 'instance-6c1bb3e7'
LOCK = ('qemu-system-x86_64: -blockdev {"node-name":"libvirt-1-format",'
        '"read-only":false,"driver":"qcow2","file":"libvirt-1-storage",'
        '"backing":null}: Failed to get "write" lock')
IMAGE = 'Is another process using the image [/srv/volume-1]?'
OLD_RUN = (
    '2026-11-24 23:28:01.101+0000: starting up libvirt version: 9.0.0\n'
    'LC_ALL=C \\\n'
    '/usr/bin/qemu-system-x86_64 \\\n'
    '-name guest=%s \\\n'
    '-msg timestamp=on\n'
    'char device redirected to /dev/pts/0 (label charserial0)\n'
    '2026-11-24T23:28:05.3Z qemu-system-x86_64: terminating on signal 15 '
    'from pid 19466 (libvirtd)\n'
    '2026-11-24 23:28:05.5+0000: shutting down, reason=destroyed\n' % NAME)
FAILED_RUN = (
    '2026-11-24 23:28:10.267+0000: starting up libvirt version: 9.0.0\n'
    'LC_ALL=C \\\n'
    '/usr/bin/qemu-system-x86_64 \\\n'
    '-msg timestamp=on\n'
    'char device redirected to /dev/pts/1 (label charserial0)\n'
    '2026-11-24T23:28:10.314471Z %s\n'
    '%s\n'
    '2026-11-24 23:28:10.316+0000: shutting down, reason=failed\n'
    % (LOCK, IMAGE))
MONITOR = 'failed to connect to monitor socket: Connection refused'


@pytest.fixture
def log_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(qemu_log, 'SYSTEM_LOG_DIR', str(tmp_path))
    return tmp_path


def _write(log_dir, text):
    (log_dir / (NAME + '.log')).write_text(text)


def test_the_reason_is_the_last_runs_error_lines(log_dir):
    _write(log_dir, OLD_RUN + FAILED_RUN)
    assert qemu_log.why_it_stopped('qemu:///system', NAME) == [
        LOCK.split(': ', 1)[1], IMAGE]


def test_a_run_that_was_stopped_has_no_reason(log_dir):
    _write(log_dir, FAILED_RUN + OLD_RUN)
    assert qemu_log.why_it_stopped('qemu:///system', NAME) is None


def test_no_log_or_a_remote_host_has_no_reason(log_dir):
    assert qemu_log.why_it_stopped('qemu:///system', NAME, wait=0) is None
    _write(log_dir, FAILED_RUN)
    assert qemu_log.why_it_stopped('qemu+ssh://h/system', NAME) is None


def test_an_unfinished_log_is_read_until_the_wait_runs_out(log_dir):
    unfinished = FAILED_RUN.rsplit('\n', 2)[0] + '\n'
    _write(log_dir, unfinished)
    assert qemu_log.why_it_stopped('qemu:///system', NAME, wait=0.1) == [
        LOCK.split(': ', 1)[1], IMAGE]


def test_a_session_daemons_log_is_in_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path))
    assert qemu_log.log_path('qemu:///session', NAME) == str(
        tmp_path / 'libvirt' / 'qemu' / 'log' / (NAME + '.log'))


class Domain:
    """A domain whose start fails with libvirt's ``message``."""

    def __init__(self, message):
        self.message = message

    def UUIDString(self):
        return '6c1bb3e7-5b1a-4c0e-9d6a-1f4f3c2b9a10'

    def name(self):
        return NAME

    def create(self):
        err = libvirt.libvirtError('stand-in')
        err.err = (libvirt.VIR_ERR_INTERNAL_ERROR, libvirt.VIR_FROM_QEMU,
                   'internal error: ' + self.message, 2, None, None, None,
                   0, 0)
        raise err


def _start(message):
    guest = libvirt_guest.Guest(libvirt_host.Host('qemu:///system'),
                                Domain(message))
    with pytest.raises(exception.VirtError) as caught:
        guest.start()
    return str(caught.value)


def test_a_start_error_without_the_reason_gets_qemus(log_dir):
    _write(log_dir, OLD_RUN + FAILED_RUN)
    said = _start(MONITOR)
    assert said.startswith('Hypervisor error: internal error: ' + MONITOR)
    assert '; QEMU said: -blockdev {' in said
    assert said.endswith('Failed to get "write" lock ' + IMAGE)


def test_a_start_error_with_the_reason_is_left_as_it_is(log_dir):
    _write(log_dir, OLD_RUN + FAILED_RUN)
    message = 'qemu unexpectedly closed the monitor: ' + LOCK
    assert _start(message) == 'Hypervisor error: internal error: ' + message


def test_a_start_error_without_a_log_is_left_as_it_is(log_dir):
    assert _start(MONITOR) == 'Hypervisor error: internal error: ' + MONITOR
