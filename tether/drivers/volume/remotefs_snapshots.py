"""Snapshots of remotefs volumes: chains of qcow2 overlays, as Cinder's
remotefs drivers keep them (a mixin of the remotefs driver).

On its share, a volume is its base file ``volume-<id>`` (raw or qcow2, as
it was made), and one qcow2 overlay ``volume-<id>.<snapshot id>`` per
snapshot, made on top of the file that was active when the snapshot was
taken (its backing file, named relative to the share and with its format
written in the header: never probed). The snapshot's data is what its
overlay's backing file reads. ``volume-<id>.info`` (JSON) names the file
the volume's data is written to, and each snapshot's overlay::

    {"active": "volume-<id>.<s2>",
     "<s1>": "volume-<id>.<s1>", "<s2>": "volume-<id>.<s2>"}

A volume without snapshots has no info file. Each step below leaves the
files in a state from which the same call, run again, finishes the job.
"""

import contextlib
import json
import os
import stat

from oslo_concurrency import lockutils
from oslo_log import log as logging

from tether.drivers import qemu_img
from tether.volume import exception

LOG = logging.getLogger(__name__)
GiB = 1024 ** 3
ACTIVE = 'active'


class SnapshotMixin:
    """What :class:`~tether.drivers.volume.remotefs.RemoteFSDriver` does
    with snapshots; it gives ``volume_dir``, ``base_format`` and
    ``limits``."""

    # Files and the info file ----------------------------------------------

    @staticmethod
    def volume_lock(volume):
        """Held around what reads or changes a volume's chain (one volume
        service serves a backend: a lock of the process)."""
        return lockutils.lock('tether-remotefs-volume-' + volume.id)

    def base_path(self, volume):
        return os.path.join(self.volume_dir(volume), volume.name_on_disk)

    def _info_path(self, volume):
        return self.base_path(volume) + '.info'

    def read_snap_info(self, volume):
        """The info file's dict; ``{}`` when the volume has no snapshots."""
        path = self._info_path(volume)
        try:
            with open(path, 'rb') as f:
                info = json.loads(f.read())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id, reason='%s: %s' % (path, exc))
        if not isinstance(info, dict) or ACTIVE not in info:
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id, reason='%s names no active file' % path)
        return info

    def _write_snap_info(self, volume, info):
        """Replace the info file at once (a whole old or a whole new one
        after a crash); with no snapshot left and the base active, remove
        it."""
        path = self._info_path(volume)
        if set(info) == {ACTIVE} and info[ACTIVE] == volume.name_on_disk:
            _unlink(path)
            return
        tmp = path + '.tmp'
        with open(tmp, 'wb') as f:
            f.write(json.dumps(info, indent=1, sort_keys=True).encode())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _fsync_dir(os.path.dirname(path))

    def active_file(self, volume):
        """The name of the file the volume's data is written to."""
        return self.read_snap_info(volume).get(ACTIVE, volume.name_on_disk)

    def has_snapshots(self, volume):
        return any(key != ACTIVE for key in self.read_snap_info(volume))

    def _file_format(self, volume, name):
        if name == volume.name_on_disk:
            return self.base_format(volume)
        return 'qcow2'

    def _backing_of(self, volume, name, force_share=False):
        """The backing file's name of the overlay ``name`` (None if it has
        none: the bottom of a chain whose base file an online delete
        pulled into it); only one of the volume's own files beside it is
        accepted. ``force_share``: while a guest's QEMU holds the file
        (its header is read, which QEMU does not change)."""
        path = os.path.join(self.volume_dir(volume), name)
        try:
            backing = qemu_img.info(path, 'qcow2', force_share=force_share,
                                    limits=self.limits).backing_file
        except exception.ImageLocked:
            raise _in_use(volume)
        except exception.ProcessFailed as exc:
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id, reason=exc)
        base = volume.name_on_disk
        if backing is not None and not (
                backing == base or (backing.startswith(base + '.') and
                                    '/' not in backing)):
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id,
                reason='%s has backing file %r, not one of the volume\'s '
                       'files' % (name, backing))
        return backing

    def _chain(self, volume, info, force_share=False):
        """The names of the files the volume reads, from the active one
        down to the base file (or to the overlay an online delete pulled
        the base file into: it has no backing file)."""
        chain = [info.get(ACTIVE, volume.name_on_disk)]
        while chain[-1] != volume.name_on_disk:
            backing = self._backing_of(volume, chain[-1], force_share)
            if backing is None:
                break
            if backing in chain:
                raise exception.RemoteFSSnapshotChainBroken(
                    volume_id=volume.id,
                    reason='%s is its own backing file' % backing)
            chain.append(backing)
        return chain

    # Snapshots --------------------------------------------------------------

    def create_snapshot(self, volume, snapshot):
        _check_same_volume(volume, snapshot)
        with self.volume_lock(volume):
            self._take_snapshot(volume, snapshot)

    def create_group_snapshot(self, pairs):
        """Snapshots of several volumes (``pairs``: (volume, snapshot))
        taken in one moment: every volume's lock is held (in the order of
        their ids) from the first overlay to the last, so nothing of this
        service writes any of them in between. Raises at the first that
        fails (those made before it stay, named in their info files)."""
        for volume, snapshot in pairs:
            _check_same_volume(volume, snapshot)
        with contextlib.ExitStack() as stack:
            for volume, _snapshot in sorted(pairs, key=lambda p: p[0].id):
                stack.enter_context(self.volume_lock(volume))
            for volume, snapshot in pairs:
                self._take_snapshot(volume, snapshot)

    def _take_snapshot(self, volume, snapshot):
        """The overlay of ``snapshot`` (the volume's lock held)."""
        info = self.read_snap_info(volume)
        if snapshot.id in info:
            LOG.info('Snapshot %s of volume %s was already taken',
                     snapshot.id, volume.id)
            return
        backing = info.get(ACTIVE, volume.name_on_disk)
        backing_path = os.path.join(self.volume_dir(volume), backing)
        name = '%s.%s' % (volume.name_on_disk, snapshot.id)
        path = os.path.join(self.volume_dir(volume), name)
        if not os.path.exists(backing_path):
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id,
                reason='its active file %s is missing' % backing)
        fmt = self._file_format(volume, backing)
        # qemu-img would stack an overlay under a running guest's feet
        # (it writes on in the old file): the lock test says whether a
        # QEMU writes it, raw or qcow2.
        if qemu_img.held_for_writing(backing_path):
            raise _in_use(volume)
        # An overlay left by a create interrupted before the info file
        # named it: nothing used it, it is made again.
        _unlink(path)
        size = max(volume.size * GiB,
                   qemu_img.virtual_size(backing_path, fmt))
        try:
            qemu_img.create_overlay(path, backing, fmt, size,
                                    limits=self.limits)
        except exception.ProcessFailed as exc:
            raise exception.VolumeBackendAPIException(
                data='snapshot %s of volume %s: %s'
                     % (snapshot.id, volume.id, exc))
        self._same_mode(path, backing_path)
        info[ACTIVE] = name
        info[snapshot.id] = name
        self._write_snap_info(volume, info)

    @staticmethod
    def _same_mode(path, backing_path):
        # Whoever opens the chain (QEMU under libvirt) reads it with the
        # same rights as the volume's other files.
        os.chmod(path, stat.S_IMODE(os.stat(backing_path).st_mode))

    def delete_snapshot(self, volume, snapshot):
        """Cinder's offline delete: the snapshot's overlay F is committed
        into its backing file B, which then reads as F did: the overlay
        above F (if any) is pointed at B without reading data (rebase
        -u), or B becomes the active file; then the info file forgets the
        snapshot, and F goes.

        Interrupted, the same call finishes it: before the info file
        changed, F is still in the chain (committed again: the same data)
        or already out of it (after the rebase: only the info file and F
        are left to do); after, only F's removal is."""
        _check_same_volume(volume, snapshot)
        with self.volume_lock(volume):
            info = self.read_snap_info(volume)
            name = '%s.%s' % (volume.name_on_disk, snapshot.id)
            if snapshot.id not in info:
                # Gone, or its create or delete was interrupted: a file
                # of its name that the info file does not name is nobody's.
                if name not in info.values():
                    _unlink(os.path.join(self.volume_dir(volume), name))
                LOG.info('Snapshot %s of volume %s was already gone',
                         snapshot.id, volume.id)
                return
            top = info[snapshot.id]
            chain = self._chain(volume, info)
            if top in chain:
                self._merge_down(volume, info, chain, top)
            del info[snapshot.id]
            self._write_snap_info(volume, info)
            _unlink(os.path.join(self.volume_dir(volume), top))
            # The plan an online delete that failed left (the volume was
            # attached then; remotefs_assisted.py).
            _unlink(self._plan_path(volume, snapshot))

    def _merge_down(self, volume, info, chain, top):
        index = chain.index(top)
        if index == len(chain) - 1:
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id,
                reason='the overlay %s has no backing file' % top)
        base = chain[index + 1]
        directory = self.volume_dir(volume)
        try:
            qemu_img.commit(os.path.join(directory, top))
            if index == 0:
                info[ACTIVE] = base
            else:
                # After the commit, base reads as top did: the overlay
                # above top reads the same through base, data unread.
                qemu_img.rebase_unsafe(
                    os.path.join(directory, chain[index - 1]), base,
                    self._file_format(volume, base), limits=self.limits)
        except exception.ProcessFailed as exc:
            raise exception.VolumeBackendAPIException(
                data='merging %s into %s of volume %s: %s'
                     % (top, base, volume.id, exc))

    def revert_to_snapshot(self, volume, snapshot):
        """Revert to the latest snapshot: its overlay is the active file,
        whose backing file holds the snapshot's data; a new empty overlay
        on that backing file takes its place (made aside, then renamed
        over it: interrupted, the old overlay or the new one is whole, and
        the same call finishes). Cinder's remotefs drivers do the same
        (remove the snapshot's overlay, make it again). Refused while a
        hypervisor holds the active file (_backing_of reads its header
        without -U)."""
        _check_same_volume(volume, snapshot)
        with self.volume_lock(volume):
            info = self.read_snap_info(volume)
            name = info.get(snapshot.id)
            if name is None or info.get(ACTIVE) != name:
                raise exception.RemoteFSSnapshotChainBroken(
                    volume_id=volume.id,
                    reason='the overlay of snapshot %s is not its active '
                           'file' % snapshot.id)
            directory = self.volume_dir(volume)
            path = os.path.join(directory, name)
            backing = self._backing_of(volume, name)
            if backing is None:
                raise exception.RemoteFSSnapshotChainBroken(
                    volume_id=volume.id,
                    reason='the overlay %s has no backing file' % name)
            backing_path = os.path.join(directory, backing)
            fmt = self._file_format(volume, backing)
            fresh = path + '.revert'
            _unlink(fresh)
            try:
                qemu_img.create_overlay(
                    fresh, backing, fmt,
                    max(volume.size * GiB,
                        qemu_img.virtual_size(backing_path, fmt)),
                    limits=self.limits)
            except exception.ProcessFailed as exc:
                raise exception.VolumeBackendAPIException(
                    data='reverting volume %s to snapshot %s: %s'
                         % (volume.id, snapshot.id, exc))
            self._same_mode(fresh, backing_path)
            os.replace(fresh, path)
            _fsync_dir(directory)

    def snapshot_data(self, volume, snapshot):
        """(path, format) of the file whose chain reads as the volume did
        when ``snapshot`` was taken: its overlay's backing file."""
        info = self.read_snap_info(volume)
        if snapshot.id not in info:
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id,
                reason='its info file names no snapshot %s' % snapshot.id)
        backing = self._backing_of(volume, info[snapshot.id],
                                   force_share=True)
        if backing is None:
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id,
                reason='the overlay of snapshot %s has no backing file'
                       % snapshot.id)
        return (os.path.join(self.volume_dir(volume), backing),
                self._file_format(volume, backing))

    def _refuse_if_snapshots(self, volume):
        if self.has_snapshots(volume):
            raise exception.RemoteFSVolumeHasSnapshots(volume_id=volume.id)

    def volume_files(self, directory, volume):
        """The paths of every file of the volume in ``directory`` (a
        share's mount point): base, overlays, info file (last)."""
        prefix = volume.name_on_disk + '.'
        try:
            names = [n for n in os.listdir(directory)
                     if n.startswith(prefix)]
        except FileNotFoundError:
            names = []
        names.sort(key=lambda n: n.endswith(('.info', '.info.tmp')))
        return [os.path.join(directory, n)
                for n in [volume.name_on_disk] + names]


def _check_same_volume(volume, snapshot):
    if snapshot.volume_id != volume.id:
        raise exception.VolumeBackendAPIException(
            data='snapshot %s is of volume %s, not %s'
                 % (snapshot.id, snapshot.volume_id, volume.id))


def _in_use(volume):
    return exception.VolumeBackendAPIException(
        data='volume %s is in use by a hypervisor (its active file is '
             'locked): its snapshots are taken and deleted offline'
             % volume.id)


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _fsync_dir(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
