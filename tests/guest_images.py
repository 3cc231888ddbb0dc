"""Images of tether's tiny test guest (tools/guest/), built for the
functional and the integration tests.

``tools/guest/build-image.sh`` makes a 19 MiB bootable raw disk (Debian's
cloud kernel and busybox) that prints ``TETHER-GUEST-...`` lines on its
serial console (tools/guest/README.rst). The tests get two of them, with
the markers ``tether-tiny-a`` and ``tether-tiny-b`` (a test tells the
image a guest booted by its ``TETHER-GUEST-UP marker=``), from the
session fixture ``guest_images`` (tests/conftest.py).

Where: the cache of the build script, ``$TETHER_GUEST_CACHE`` (as root
``/var/cache/tether-guest`` by default, else ``~/.cache/tether-guest``),
keeps the downloaded .deb files across runs (a build then takes about
5 s); the images go to ``images/<key>/`` under it, directories of mode
0755 so that libvirt-qemu could read them (the tests upload them to
Glance, or copy them into volume files, instead). ``<key>`` is a digest of
the build script and the guest's ``/init``: the images are built once
and rebuilt only when those change. The pytest-xdist workers of one run
share them through a file lock: the first builds, the others wait.

Without the tools of bindep.txt's ``guest`` profile, or without a
kernel package to download or in the cache, the tests that need an
image are skipped with the reason.
"""

import fcntl
import hashlib
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUEST_DIR = os.path.join(ROOT, 'tools', 'guest')
BUILD = os.path.join(GUEST_DIR, 'build-image.sh')
MARKERS = ('tether-tiny-a', 'tether-tiny-b')
# What build-image.sh runs (bindep.txt, profile guest).
TOOLS = ('apt-get', 'apt-cache', 'dpkg-deb', 'mkfs.vfat', 'mcopy', 'mmd',
         'syslinux', 'sfdisk', 'gzip', 'qemu-img')
MBR_BIN = '/usr/lib/syslinux/mbr/mbr.bin'
INSTALL = ('apt-get install -y --no-install-recommends syslinux '
           'syslinux-common mtools dosfstools fdisk qemu-utils '
           '(bindep.txt, profile guest)')
# build-image.sh's words for "no kernel or busybox package to be had".
_NO_PACKAGE = ('apt knows no', 'apt-get download')

_built = None      # {marker: path} once built in this process
_failure = None    # the reason the images cannot be had, once known


def cache_dir():
    """The build script's cache of .deb files (and the images)."""
    found = os.environ.get('TETHER_GUEST_CACHE')
    if found:
        return found
    if os.geteuid() == 0:
        return '/var/cache/tether-guest'
    return os.path.join(os.path.expanduser('~'), '.cache', 'tether-guest')


def missing_tool():
    """Why the images cannot be built here, or None."""
    path = os.environ.get('PATH', '') + ':/usr/sbin:/sbin'
    for tool in TOOLS:
        if shutil.which(tool, path=path) is None:
            return '%s is missing' % tool
    if not os.path.exists(MBR_BIN):
        return '%s is missing (syslinux-common)' % MBR_BIN
    return None


def _key():
    digest = hashlib.sha256()
    for name in ('build-image.sh', 'init'):
        with open(os.path.join(GUEST_DIR, name), 'rb') as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


def _makedirs_0755(path):
    os.makedirs(path, exist_ok=True)
    if os.stat(path).st_uid == os.geteuid():
        os.chmod(path, 0o755)


def _build(out, marker, cache):
    env = dict(os.environ, TETHER_GUEST_CACHE=cache,
               PATH=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')
    proc = subprocess.run([BUILD, out, '--marker', marker, '--cache', cache],
                          env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=600)
    if proc.returncode != 0:
        error = proc.stderr.strip().splitlines()[-1:] or ['(no output)']
        if any(words in error[0] for words in _NO_PACKAGE):
            return 'no kernel package to build it from: %s' % error[0]
        pytest.fail('%s %s failed (%d):\n%s' % (BUILD, out, proc.returncode,
                                                proc.stderr), pytrace=False)
    return None


def _build_all(cache):
    """{marker: path} of the images, built under the lock if missing;
    or the reason they cannot be (a str)."""
    images = os.path.join(cache, 'images')
    _makedirs_0755(cache)
    _makedirs_0755(images)
    here = os.path.join(images, _key())
    with open(os.path.join(images, '.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        paths = {m: os.path.join(here, m + '.raw') for m in MARKERS}
        if all(os.path.exists(p) for p in paths.values()):
            return paths
        _makedirs_0755(here)
        for marker, path in paths.items():
            if not os.path.exists(path):
                reason = _build(path, marker, cache)
                if reason:
                    return reason
        # Images of earlier versions of the script are not used again.
        for name in os.listdir(images):
            old = os.path.join(images, name)
            if old != here and os.path.isdir(old):
                shutil.rmtree(old, ignore_errors=True)
        return paths


def images():
    """{marker: path of its raw image}; skips the test when they cannot
    be built here (the reason says what to install)."""
    global _built, _failure
    if _built is None and _failure is None:
        missing = missing_tool()
        if missing:
            _failure = '%s: %s' % (missing, INSTALL)
        else:
            found = _build_all(cache_dir())
            if isinstance(found, str):
                _failure = found
            else:
                _built = found
    if _failure:
        pytest.skip('the tiny test guest cannot be built: ' + _failure)
    return dict(_built)
