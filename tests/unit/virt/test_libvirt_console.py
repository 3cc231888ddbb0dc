"""The console log as the libvirt driver reads it: bounded, across
virtlogd's rotations, only regular files the driver made."""

import os

import pytest

from tether.drivers.virt.libvirt import console

UUID = '6c1bb3e7-5b1a-4c0e-9d6a-1f4f3c2b9a10'


@pytest.fixture
def log(tmp_path):
    path = tmp_path / UUID / console.LOG_NAME
    path.parent.mkdir()
    return path


def test_where_a_guest_logs_and_which_logs_are_read():
    path = console.log_path('/var/lib/tether/instances', UUID)
    assert path == '/var/lib/tether/instances/%s/console.log' % UUID
    assert console.is_log_of(path, UUID)
    assert not console.is_log_of(path, 'another-uuid')
    assert not console.is_log_of('/etc/shadow', UUID)
    assert not console.is_log_of('/i/%s/other.log' % UUID, UUID)
    assert not console.is_log_of('%s/console.log' % UUID, UUID)


def test_no_log_yet_is_empty(log):
    assert console.tail(str(log)) == b''


def test_a_short_log_is_read_whole(log):
    log.write_bytes(b'one\r\ntwo\r\n')
    assert console.tail(str(log)) == b'one\r\ntwo\r\n'


def test_a_long_log_gives_its_last_bytes(log):
    log.write_bytes(b'x' * 1000 + b'the end')
    assert console.tail(str(log), limit=10) == b'xxxthe end'
    data = b''.join(b'%06d\n' % i for i in range(40000))
    log.write_bytes(data)
    got = console.tail(str(log))
    assert len(got) == console.MAX_CONSOLE_BYTES == 100 * 1024
    assert got == data[-console.MAX_CONSOLE_BYTES:]


def test_rotated_logs_come_before_the_current_one(log):
    # virtlogd: console.log.0 is the newest rotated copy, .1 older.
    log.write_bytes(b'newest')
    log.with_name('console.log.0').write_bytes(b'older ')
    log.with_name('console.log.1').write_bytes(b'oldest ')
    assert console.tail(str(log)) == b'oldest older newest'
    assert console.tail(str(log), limit=9) == b'er newest'
    assert console.tail(str(log), limit=6) == b'newest'
    # A gap ends the chain.
    log.with_name('console.log.1').unlink()
    log.with_name('console.log.2').write_bytes(b'lost ')
    assert console.tail(str(log)) == b'older newest'


def test_only_regular_files_are_read(log, tmp_path):
    secret = tmp_path / 'secret'
    secret.write_bytes(b'not for the API')
    os.symlink(secret, log)
    assert console.tail(str(log)) == b''
    log.unlink()
    os.mkfifo(log)     # would block a plain open() for reading
    assert console.tail(str(log)) == b''
