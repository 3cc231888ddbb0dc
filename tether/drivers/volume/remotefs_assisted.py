"""Assisted snapshots of attached remotefs volumes (a mixin of the
remotefs driver, beside SnapshotMixin).

A guest's QEMU holds an attached volume's chain open and writes its
active file, so qemu-img cannot change it: the driver makes and names
the files, the compute host switches or merges them (Cinder's remotefs
online snapshots, the compute side being Nova's os-assisted-volume-
snapshots; tether.volume.ops.snapshots asks it and waits), and the
driver then records the result in the info file.

* **take**: a new overlay ``volume-<id>.<snapshot id>`` on the active
  file; the compute host makes it the file written; the info file names
  it active and the snapshot's.
* **delete** of a snapshot whose overlay F has the backing file B:
  if F is the active file, the compute host *pulls* B into F (F's
  backing file becomes B's, or none if B was the bottom); the snapshot
  whose overlay was B (if any) is F's now, and B goes. Otherwise it
  *commits* F into B (the overlay above F is backed by B), and F goes.
  The file written never changes.

What a delete will do is written first to ``volume-<id>.<snapshot
id>.merge`` (JSON). A delete taken up again (after a restart, a lost
answer or an error) reads it: if the file it removes is out of the chain
the compute host merged it, and only the info file and the files are
left to do; otherwise it plans again from the files as they are.
"""

import json
import os

from oslo_log import log as logging

from tether.drivers import qemu_img
from tether.drivers.volume import remotefs_snapshots as rs
from tether.volume import exception

LOG = logging.getLogger(__name__)
ACTIVE = rs.ACTIVE


class AssistedSnapshotMixin:
    """What RemoteFSDriver does for snapshots of attached volumes; it
    gives SnapshotMixin's methods."""

    def _plan_path(self, volume, snapshot):
        return os.path.join(self.volume_dir(volume), '%s.%s.merge' % (
            volume.name_on_disk, snapshot.id))

    def _is_written_by_guest(self, volume, name):
        """Whether a QEMU holds the file ``name`` for writing."""
        return qemu_img.held_for_writing(
            os.path.join(self.volume_dir(volume), name))

    # Take -------------------------------------------------------------------

    def prepare_assisted_snapshot(self, volume, snapshot):
        """The overlay the compute host is to switch the guest's disk to
        (made now on the active file, or the one made before: the guest
        may write it already); Nova's ``create_info``, or None if the
        snapshot is recorded as taken."""
        rs._check_same_volume(volume, snapshot)
        info = self.read_snap_info(volume)
        if snapshot.id in info:
            return None
        active = info.get(ACTIVE, volume.name_on_disk)
        name = '%s.%s' % (volume.name_on_disk, snapshot.id)
        path = os.path.join(self.volume_dir(volume), name)
        active_path = os.path.join(self.volume_dir(volume), active)
        if not os.path.exists(active_path):
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id,
                reason='its active file %s is missing' % active)
        if os.path.exists(path):
            backing = self._backing_of(volume, name, force_share=True)
            if backing != active:
                raise exception.RemoteFSSnapshotChainBroken(
                    volume_id=volume.id,
                    reason='%s is on %s, not on the active file %s'
                           % (name, backing, active))
            LOG.info('Snapshot %s of volume %s: its overlay was made '
                     'before; the compute host is asked again', snapshot.id,
                     volume.id)
        else:
            fmt = self._file_format(volume, active)
            size = max(volume.size * rs.GiB,
                       qemu_img.virtual_size(active_path, fmt))
            try:
                qemu_img.create_overlay(path, active, fmt, size,
                                        limits=self.limits)
            except exception.ProcessFailed as exc:
                raise exception.VolumeBackendAPIException(
                    data='snapshot %s of volume %s: %s'
                         % (snapshot.id, volume.id, exc))
            self._same_mode(path, active_path)
        return {'snapshot_id': snapshot.id, 'type': 'qcow2',
                'new_file': name}

    def finish_assisted_snapshot(self, volume, snapshot, create_info):
        """The compute host switched the guest to the overlay: record it
        as the active file and the snapshot's."""
        info = self.read_snap_info(volume)
        name = create_info['new_file']
        info[ACTIVE] = name
        info[snapshot.id] = name
        self._write_snap_info(volume, info)

    def abandon_assisted_snapshot(self, volume, snapshot, create_info):
        """The compute host did not switch the guest: the overlay goes,
        unless a guest writes it after all (then it stays, and is said)."""
        name = create_info['new_file']
        if snapshot.id in self.read_snap_info(volume):
            return
        if self._is_written_by_guest(volume, name):
            LOG.error('Snapshot %s of volume %s failed, but a guest writes '
                      'its overlay %s: it is kept', snapshot.id, volume.id,
                      name)
            return
        rs._unlink(os.path.join(self.volume_dir(volume), name))

    # Delete -----------------------------------------------------------------

    def prepare_assisted_snapshot_delete(self, volume, snapshot):
        """``(plan, merged)``: what the compute host is to merge (the
        plan's ``delete_info``, Nova's) and whether it has merged it
        already (a delete taken up again); None if the info file names
        the snapshot no more (what an interrupted finish left goes)."""
        rs._check_same_volume(volume, snapshot)
        plan = self._read_plan(volume, snapshot)
        info = self.read_snap_info(volume)
        if snapshot.id not in info:
            if plan is not None:
                self._remove_merged(volume, snapshot, plan)
            return None
        chain = self._chain(volume, info, force_share=True)
        if (plan is not None and plan['overlay'] == info[snapshot.id] and
                plan['remove'] not in chain):
            # Merged by the compute host; what the info file says of
            # other snapshots since is kept (finish changes it, not
            # replaces it).
            return plan, True
        plan = self._plan_delete(volume, snapshot, info, chain)
        self._write_plan(volume, snapshot, plan)
        return plan, False

    def _read_plan(self, volume, snapshot):
        path = self._plan_path(volume, snapshot)
        try:
            with open(path, 'rb') as f:
                return json.loads(f.read())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id, reason='%s: %s' % (path, exc))

    def _write_plan(self, volume, snapshot, plan):
        path = self._plan_path(volume, snapshot)
        tmp = path + '.tmp'
        with open(tmp, 'wb') as f:
            f.write(json.dumps(plan, sort_keys=True).encode())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        rs._fsync_dir(os.path.dirname(path))

    def _plan_delete(self, volume, snapshot, info, chain):
        overlay = info[snapshot.id]
        if overlay not in chain:
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id,
                reason='the overlay %s of snapshot %s is not in the chain '
                       '%s' % (overlay, snapshot.id, ' <- '.join(chain)))
        index = chain.index(overlay)
        if index + 1 >= len(chain):
            raise exception.RemoteFSSnapshotChainBroken(
                volume_id=volume.id,
                reason='the overlay %s of snapshot %s has no backing file'
                       % (overlay, snapshot.id))
        base = chain[index + 1]
        if index == 0:
            # Pull the base into the active file (below it: the file
            # the base was on, or none).
            below = chain[index + 2] if index + 2 < len(chain) else None
            kind, remove = 'pull', base
            merge = {'file_to_merge': below, 'merge_target_file': None}
        else:
            kind, remove = 'commit', overlay
            merge = {'file_to_merge': overlay, 'merge_target_file': base}
        return {'delete_info': dict(merge, type='qcow2',
                                    volume_id=volume.id),
                'kind': kind, 'overlay': overlay, 'remove': remove}

    def finish_assisted_snapshot_delete(self, volume, snapshot, plan):
        """The compute host merged the files: the info file forgets the
        snapshot (after a pull, the snapshot whose overlay the base file
        was has the active file for one), the file merged away goes,
        then the plan."""
        info = self.read_snap_info(volume)
        if snapshot.id in info:
            del info[snapshot.id]
            if plan['kind'] == 'pull':
                for key, value in list(info.items()):
                    if key != ACTIVE and value == plan['remove']:
                        info[key] = plan['overlay']
            self._write_snap_info(volume, info)
        self._remove_merged(volume, snapshot, plan)

    def _remove_merged(self, volume, snapshot, plan):
        rs._unlink(os.path.join(self.volume_dir(volume), plan['remove']))
        rs._unlink(self._plan_path(volume, snapshot))
