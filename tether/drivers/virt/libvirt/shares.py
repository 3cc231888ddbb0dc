"""Manila shares mounted on the compute host, for guests to get over
virtio-fs (the host side of the libvirt driver's shares).

Each share is mounted on ``<base>/<share id>`` (``[libvirt]
share_mount_point_base``):

* **CEPHFS** with ``ceph-fuse``, daemonized, as the cephx user of the
  share's access rule. The monitors and the path come from the export
  (:func:`cephfs_export`); the key goes into a keyring file of its own,
  ``<base>/.keyrings/<share id>.keyring``, mode 0600 in a 0700 directory,
  and nowhere else: not on a command line, not in a log, not in an
  exception. No ``ceph.conf`` is needed: ``-m`` and the keyring are
  enough (``-c /dev/null`` keeps ceph-fuse from reading the host's).
* **NFS** with ``mount -t nfs``, run by :func:`mount_nfs` alone.

Both are idempotent: a share mounted already is not mounted again, and
unmounting one that is not mounted is not an error. Whether a guest still
needs a share is the compute manager's business, not this module's.
"""

import errno
import os
import re
import subprocess
import time

from oslo_concurrency import lockutils
from oslo_concurrency import processutils
from oslo_log import log as logging

from tether.compute import share_exception

LOG = logging.getLogger(__name__)
# The level processutils logs the mount commands at: oslo.log's TRACE,
# below DEBUG (the commands name where a share is).
TRACE = logging.TRACE

PROTOCOLS = ('CEPHFS', 'NFS')
KEYRING_DIR = '.keyrings'
# ceph-fuse gives up on monitors that do not answer after this many
# seconds (its default is 300); the command itself is given a little more.
CEPH_MOUNT_TIMEOUT = 30
COMMAND_TIMEOUT = 60
# The monitors' default ports: 3300 speaks msgr2, any other (6789) the
# first protocol.
MSGR2_PORT = '3300'
# An umount right after ceph-fuse returned may find the mount busy for a
# moment (seen here); it is tried again this many times.
UMOUNT_TRIES = 5
UMOUNT_RETRY_INTERVAL = 0.5

# A cephx user name (client.<name>) and a cephx key (base64): nothing
# that could end a line of the keyring file or start an option.
_CEPHX_NAME = re.compile(r'^[A-Za-z0-9][A-Za-z0-9._-]*$')
_CEPHX_KEY = re.compile(r'^[A-Za-z0-9+/]+={0,2}$')
_SHARE_ID = re.compile(r'^[A-Za-z0-9][A-Za-z0-9._-]*$')
# A monitor: host:port, [v6]:port, optionally with v1: or v2: before it.
_MON = re.compile(r'^(v[12]:)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d+)$')


def _invalid(share_id, reason):
    return share_exception.InvalidShareExport(share_id=share_id, reason=reason)


def mount_path(base, share_id):
    """Where the share ``share_id`` is mounted: ``<base>/<share id>``."""
    if not share_id or not _SHARE_ID.match(share_id) or share_id in (
            '.', '..'):
        raise _invalid(share_id, 'its ID is not a plain name')
    return os.path.join(base, share_id)


def keyring_path(base, share_id):
    return os.path.join(base, KEYRING_DIR, '%s.keyring' % share_id)


def cephfs_export(share_id, export):
    """The monitors and the path of a CephFS export location.

    ``mon1:6789,mon2:6789:/volumes/_nogroup/<...>`` gives
    ``(['v1:mon1:6789', 'v1:mon2:6789'], '/volumes/_nogroup/<...>')``.
    A monitor without a protocol is named ``v1:`` unless its port is
    3300: ceph-fuse would first try msgr2 on a port that speaks the first
    protocol, and with a key the monitor refuses it retries that forever
    instead of failing.
    """
    mons, sep, path = export.partition(':/')
    if not sep or not mons:
        raise _invalid(share_id, 'the CephFS export %r is not '
                                 'mon:port[,mon:port]:/path' % export)
    path = '/' + path
    if any(part in ('.', '..') for part in path.split('/')) or any(
            c.isspace() for c in path):
        raise _invalid(share_id, 'the path of the CephFS export %r is not '
                                 'a plain absolute path' % export)
    found = []
    for mon in mons.split(','):
        match = _MON.match(mon)
        if not match:
            raise _invalid(share_id, 'the CephFS export %r names the '
                                     'monitor %r, not host:port'
                           % (export, mon))
        if match.group(1):
            found.append(mon)
        else:
            found.append(('v2:' if match.group(3) == MSGR2_PORT else 'v1:')
                         + mon)
    return found, path.rstrip('/') or '/'


def nfs_export(share_id, export):
    """An NFS export location (``host:/path``), checked."""
    host, sep, path = export.partition(':/')
    if not sep or not host or host.startswith('-') or any(
            c.isspace() for c in export):
        raise _invalid(share_id, 'the NFS export %r is not host:/path'
                       % export)
    return export


def _write_keyring(path, name, key):
    """Write the keyring of ``client.<name>`` to ``path``, mode 0600,
    replacing any keyring there at once (rename): a reader sees the old
    file or the new one, never half of one."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    os.chmod(os.path.dirname(path), 0o700)
    tmp = '%s.%d.tmp' % (path, os.getpid())
    try:
        os.unlink(tmp)      # a leftover of a crash of this process ID
    except FileNotFoundError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                 0o600)
    try:
        with os.fdopen(fd, 'w') as f:
            f.write('[client.%s]\n\tkey = %s\n' % (name, key))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _remove_dir(mount_point):
    """Remove the empty directory of a share that is not mounted."""
    try:
        os.rmdir(mount_point)
    except FileNotFoundError:
        pass
    except OSError as exc:
        # Not empty: something wrote into the directory while nothing was
        # mounted on it. It is left for a person to look at.
        LOG.warning('Left %s: %s', mount_point, exc.strerror)


def _unescape(field):
    """A path of /proc/self/mounts (spaces and such are octal escapes)."""
    return re.sub(r'\\([0-7]{3})', lambda m: chr(int(m.group(1), 8)),
                  field)


def is_mounted(path):
    """Whether something is mounted on ``path`` (a dead FUSE mount, whose
    directory cannot even be looked at, counts)."""
    path = os.path.realpath(path)
    with open('/proc/self/mounts') as f:
        for line in f:
            fields = line.split()
            if len(fields) > 1 and _unescape(fields[1]) == path:
                return True
    return False


def _alive(path):
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno in (errno.ENOTCONN, errno.EIO):
            return False
        raise
    return True


def _run(share_id, failure, *cmd, hide=()):
    """Run ``cmd``; raise ``failure`` (an exception class) with its
    message if it fails or outlives COMMAND_TIMEOUT (then it is killed).

    The command names where the share is (its export, its path), which no
    log line may show: processutils logs commands at TRACE (below DEBUG)
    here, this module its own lines by share ID, and the strings of
    ``hide`` are cut out of the failure's message (which a server's fault
    shows its owner)."""
    started = []
    LOG.debug('Share %s: running %s', share_id, cmd[0])
    try:
        processutils.execute(*cmd, timeout=COMMAND_TIMEOUT,
                             on_execute=started.append,
                             loglevel=TRACE)
    except processutils.ProcessExecutionError as exc:
        reason = (exc.stderr or exc.stdout or cmd[0]).strip()
        for secret in hide:
            if secret:
                reason = reason.replace(secret, '<export>')
        # ceph-fuse prints its last words last.
        raise failure(share_id=share_id, reason=reason[-500:])
    except subprocess.TimeoutExpired:
        for proc in started:
            proc.kill()
            proc.wait()
        raise failure(share_id=share_id, reason='%s did not end in %s s'
                      % (cmd[0], COMMAND_TIMEOUT))
    except OSError as exc:         # not installed
        raise failure(share_id=share_id, reason='%s: %s'
                      % (cmd[0], exc.strerror))


def mount_nfs(share_id, export, mount_point):
    """``mount -t nfs EXPORT MOUNT_POINT``: the one place an NFS share is
    mounted (the functional tests, on a host without an NFS client, put a
    bind mount of a local directory in its place)."""
    _run(share_id, share_exception.ShareMountFailed,
         'mount', '-t', 'nfs', export, mount_point, hide=(export,))


def _checked(share):
    """What the mount of ``share`` needs, checked before anything is
    made: the NFS export, or the CephFS monitors and path."""
    if share.protocol not in PROTOCOLS:
        raise _invalid(share.share_id, 'protocol %r is not one of %s'
                       % (share.protocol, ', '.join(PROTOCOLS)))
    if share.protocol == 'NFS':
        return nfs_export(share.share_id, share.export)
    if not share.access_to or not _CEPHX_NAME.match(share.access_to):
        raise _invalid(share.share_id, 'the cephx user %r is not a plain '
                                       'name' % (share.access_to,))
    if not share.access_key or not _CEPHX_KEY.match(share.access_key):
        # The key is not shown, whatever is wrong with it.
        raise _invalid(share.share_id, 'the key of cephx user %s is '
                                       'missing or not base64'
                       % share.access_to)
    return cephfs_export(share.share_id, share.export)


def _mount_cephfs(share, mons, path, keyring, mount_point):
    _write_keyring(keyring, share.access_to, share.access_key)
    try:
        _run(share.share_id, share_exception.ShareMountFailed,
             'ceph-fuse', '-c', '/dev/null', '-m', ','.join(mons),
             '--id', share.access_to, '--keyring', keyring,
             '--client_mount_timeout', str(CEPH_MOUNT_TIMEOUT),
             '-r', path, mount_point, hide=(path,) + tuple(mons))
    except Exception:
        _remove(keyring)
        raise


def mount(share, base):
    """Mount the ShareMount ``share`` under ``base`` unless it is there;
    return its mount point."""
    mount_point = mount_path(base, share.share_id)
    checked = _checked(share)
    with lockutils.lock('tether-share-' + share.share_id):
        if is_mounted(mount_point):
            if _alive(mount_point):
                return mount_point
            # ceph-fuse died: the mount is there, every access fails.
            LOG.warning('Share %s on %s is mounted but does not answer; '
                        'mounting it again', share.share_id, mount_point)
            _run(share.share_id, share_exception.ShareMountFailed,
                 'umount', '-l', mount_point)
        os.makedirs(mount_point, mode=0o755, exist_ok=True)
        try:
            if share.protocol == 'NFS':
                mount_nfs(share.share_id, checked, mount_point)
            else:
                mons, path = checked
                _mount_cephfs(share, mons, path,
                              keyring_path(base, share.share_id),
                              mount_point)
            if not is_mounted(mount_point):
                raise share_exception.ShareMountFailed(
                    share_id=share.share_id,
                    reason='the mount command succeeded, yet nothing is '
                           'mounted on %s' % mount_point)
        except share_exception.ShareMountFailed:
            _remove_dir(mount_point)
            raise
    LOG.info('Mounted share %s (%s) on %s', share.share_id, share.protocol,
             mount_point)
    return mount_point


def _umount(share_id, mount_point):
    for attempt in range(1, UMOUNT_TRIES + 1):
        try:
            _run(share_id, share_exception.ShareUnmountFailed, 'umount',
                 mount_point)
            return
        except share_exception.ShareUnmountFailed:
            if not is_mounted(mount_point):
                return
            if attempt == UMOUNT_TRIES:
                raise
            time.sleep(UMOUNT_RETRY_INTERVAL)


def umount(share_id, base):
    """Unmount the share ``share_id`` and remove its keyring and mount
    point; False if it was not mounted."""
    mount_point = mount_path(base, share_id)
    with lockutils.lock('tether-share-' + share_id):
        mounted = is_mounted(mount_point)
        if mounted:
            _umount(share_id, mount_point)
            LOG.info('Unmounted share %s from %s', share_id, mount_point)
        _remove(keyring_path(base, share_id))
        _remove_dir(mount_point)
    return mounted
