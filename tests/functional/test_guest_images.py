"""The test fixtures of the tiny guest: its images and its console lines."""

import gzip
import subprocess

import pytest

from tests.functional import guest_console
from tests import guest_images as builder


def _initramfs(image):
    """The guest's initramfs, read from the image's FAT partition (at
    1 MiB) with mtools, as build-image.sh wrote it."""
    out = subprocess.run(['mcopy', '-n', '-i', image + '@@1M',
                          '::/initramfs.gz', '-'], check=True,
                         capture_output=True, timeout=60,
                         env={'MTOOLS_SKIP_CHECK': '1', 'PATH':
                              '/usr/bin:/bin'}).stdout
    return gzip.decompress(out)


def test_two_images_each_with_its_marker(guest_images):
    assert sorted(guest_images) == ['tether-tiny-a', 'tether-tiny-b']
    for marker, path in guest_images.items():
        with open(path, 'rb') as f:
            assert f.read(512)[510:] == b'\x55\xaa'     # an MBR
        others = [m for m in guest_images if m != marker]
        initramfs = _initramfs(path)
        assert marker.encode() + b'\n' in initramfs
        assert all(o.encode() + b'\n' not in initramfs for o in others)
    # Built once: the same paths again.
    assert builder.images() == guest_images


def test_without_the_build_tools_the_tests_are_skipped(monkeypatch):
    monkeypatch.setattr(builder, '_built', None)
    monkeypatch.setattr(builder, '_failure', None)
    monkeypatch.setenv('PATH', '/nonexistent')
    monkeypatch.setattr(builder, 'TOOLS', ('no-such-tool',))
    with pytest.raises(pytest.skip.Exception) as skipped:
        builder.images()
    assert str(skipped.value.msg) == (
        'the tiny test guest cannot be built: no-such-tool is missing: '
        + builder.INSTALL)


def test_console_lines_are_parsed():
    lines = [
        'SYSLINUX 6.04 20210613 Copyright (C) 1994-2015 H. Peter Anvin',
        'TETHER-GUEST-BOOT marker=tether-tiny-a uptime=1.85',
        'TETHER-GUEST-DISK name=sda bytes=19922944 serial=boot bus=scsi',
        '[    2.001] sd 0:0:0:1: [sdb] Attached SCSI disk',
        'TETHER-GUEST-DISK name=sdb bytes=1073741824 serial= bus=scsi',
        'TETHER-GUEST-DISKS count=2 names=sda,sdb',
    ]
    assert guest_console.parse(lines[0]) is None
    assert guest_console.parse(lines[1]) == (
        'BOOT', {'marker': 'tether-tiny-a', 'uptime': '1.85'})
    assert guest_console.parse(
        'TETHER-GUEST-DISKS-CHANGED added= removed=sdb resized= '
        'uptime=5.45') == ('DISKS-CHANGED', {
            'added': '', 'removed': 'sdb', 'resized': '', 'uptime': '5.45'})
    assert guest_console.disk_report(lines) == {
        'sda': {'bytes': 19922944, 'serial': 'boot', 'bus': 'scsi'},
        'sdb': {'bytes': 1073741824, 'serial': '', 'bus': 'scsi'}}
    assert guest_console.names('sdb,sdc') == ['sdb', 'sdc']
    assert guest_console.names('') == []
