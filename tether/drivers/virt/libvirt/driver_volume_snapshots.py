"""The assisted volume snapshot methods of the libvirt driver
(LibvirtDriver): what the volume service of a file-backed volume asks of
the hypervisor that holds the volume's files (Nova's
``os-assisted-volume-snapshots``).

A volume on a remotefs backend is a chain of files on its share, each a
qcow2 overlay on the one below (see tether.drivers.volume.
remotefs_snapshots). While a guest runs, its QEMU writes the top file
and holds the chain open, so only it can change the chain:

* **create**: the volume service has made a new overlay on the top file;
  the guest's disk is switched to it (an external, disk-only snapshot
  that reuses the file), live and in the guest's definition;
* **delete**: two files that follow each other in the chain become one:
  a *commit* writes a backing file (``file_to_merge``) into the one
  below it (``merge_target_file``), and the file above it is backed by
  that one; a *pull* (``merge_target_file`` None) copies into the top
  file what the files above ``file_to_merge`` hold, which becomes its
  backing file (None: all of them, and it has none). The top file stays
  the one written in both.

A guest that is not running gets the same results from its definition
(create) and from qemu-img (delete). Files are named by the volume
service relative to the directory of the volume's files, as its info
file names them; every call may be made again and then does nothing
more (the volume service repeats a call it lost the answer of).
"""

import os
import xml.etree.ElementTree as ET

from oslo_log import log as logging

from tether.compute import exception
from tether.drivers import qemu_img
from tether.drivers.virt.libvirt import parse

LOG = logging.getLogger(__name__)


def _in_directory(directory, name, volume_id, instance_uuid):
    """The path of the file ``name`` beside the volume's files; a name
    that is not a plain file name there is refused."""
    if (not name or name in ('.', '..') or '/' in name or
            '\0' in name):
        raise exception.VolumeChainMismatch(
            volume_id=volume_id, instance_id=instance_uuid,
            reason='%r is not the name of a file beside the volume\'s '
                   'files' % name)
    return os.path.join(directory, name)


def _without_backing_store(domain_xml, target):
    """The domain's XML without the ``<backingStore>`` of disk
    ``target``: libvirt reads the chain from the files' headers again at
    the next start."""
    root = ET.fromstring(domain_xml)
    for disk in root.iterfind('./devices/disk'):
        found = disk.find('target')
        if found is None or found.get('dev') != target:
            continue
        for store in disk.findall('backingStore'):
            disk.remove(store)
    return ET.tostring(root, encoding='unicode')


class VolumeSnapshotsMixin:
    """LibvirtDriver's assisted volume snapshot methods; it gives
    ``host``, ``_lock``."""

    def _volume_chain(self, guest, instance_uuid, volume_id, live):
        chain = parse.disk_chain(guest.xml(inactive=not live), volume_id)
        if chain is None or not chain.files:
            raise exception.VolumeAttachmentNotFound(
                volume_id=volume_id, instance_id=instance_uuid)
        return chain

    def volume_snapshot_create(self, instance_uuid, volume_id, new_file):
        """Make the qcow2 ``new_file`` (on the disk's file now) the file
        the guest's disk of the volume writes to. Returns True if it
        switched, False if it was that file already."""
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            live = guest.is_active()
            chain = self._volume_chain(guest, instance_uuid, volume_id,
                                       live)
            current = chain.files[0]
            new_path = _in_directory(os.path.dirname(current), new_file,
                                     volume_id, instance_uuid)
            if new_path == current:
                LOG.info('%r writes volume %s to %s already', guest,
                         volume_id, new_file)
                return False
            if not os.path.isfile(new_path):
                raise exception.VolumeFileNotFound(path=new_path,
                                                   volume_id=volume_id)
            others = sorted({d.target for d in guest.disks(not live)
                             if d.target and d.target != chain.target})
            guest.snapshot_disk(chain.target, new_path, others)
        LOG.info('%r writes volume %s (%s) to %s now (%s)', guest,
                 volume_id, chain.target, new_file,
                 'live' if live else 'in its definition')
        return True

    def volume_snapshot_delete(self, instance_uuid, volume_id, file_to_merge,
                               merge_target_file):
        """Merge two neighbours of the volume's chain (module docstring).
        Returns True if it merged, False if they were merged already."""
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            if guest.is_active():
                return self._merge_live(guest, instance_uuid, volume_id,
                                        file_to_merge, merge_target_file)
            return self._merge_offline(guest, instance_uuid, volume_id,
                                       file_to_merge, merge_target_file)

    def _merge_plan(self, files, instance_uuid, volume_id, file_to_merge,
                    merge_target_file):
        """``(kind, index)``: ``('pull', i)`` pulls into files[0] the
        files above files[i] (i None: all), ``('commit', i)`` commits
        files[i] into files[i + 1]; ``(None, None)`` when done already."""
        names = [os.path.basename(f) for f in files]
        directory = os.path.dirname(files[0])
        for name in (file_to_merge, merge_target_file):
            if name is not None:
                _in_directory(directory, name, volume_id, instance_uuid)

        def mismatch(reason):
            return exception.VolumeChainMismatch(
                volume_id=volume_id, instance_id=instance_uuid,
                reason='%s (the chain is %s)' % (reason, ' <- '.join(
                    reversed(names))))

        if merge_target_file is None:
            if file_to_merge is None:
                return ('pull', None) if len(names) > 1 else (None, None)
            if file_to_merge not in names[1:]:
                raise mismatch('%s is not a backing file of %s'
                               % (file_to_merge, names[0]))
            index = names.index(file_to_merge)
            return ('pull', index) if index > 1 else (None, None)
        if file_to_merge == names[0]:
            raise mismatch('%s is the file written: it is pulled into, '
                           'not committed' % file_to_merge)
        if file_to_merge not in names:
            if merge_target_file in names:
                return (None, None)     # committed and gone from the chain
            raise mismatch('neither %s nor %s is in it'
                           % (file_to_merge, merge_target_file))
        index = names.index(file_to_merge)
        if index + 1 >= len(names) or names[index + 1] != merge_target_file:
            raise mismatch('%s is not the backing file of %s'
                           % (merge_target_file, file_to_merge))
        return ('commit', index)

    def _merge_live(self, guest, instance_uuid, volume_id, file_to_merge,
                    merge_target_file):
        chain = self._volume_chain(guest, instance_uuid, volume_id, True)
        files = chain.files
        kind, index = self._merge_plan(files, instance_uuid, volume_id,
                                       file_to_merge, merge_target_file)
        if kind is None:
            LOG.info('%r: %s of volume %s is merged already', guest,
                     file_to_merge, volume_id)
            return False
        if kind == 'pull':
            guest.block_pull(chain.target,
                             None if index is None else files[index])
        else:
            guest.block_commit(chain.target, files[index + 1], files[index])
        guest.wait_block_job(chain.target)
        after = self._volume_chain(guest, instance_uuid, volume_id, True)
        gone = files[1:] if index is None else (
            files[1:index] if kind == 'pull' else [files[index]])
        if any(f in after.files for f in gone):
            raise exception.VolumeChainMismatch(
                volume_id=volume_id, instance_id=instance_uuid,
                reason='the %s ended, but the chain is still %s'
                       % (kind, ' <- '.join(reversed(after.files))))
        LOG.info('%r: %s of volume %s (%s) done live', guest, kind,
                 volume_id, chain.target)
        return True

    def _offline_chain(self, guest, instance_uuid, volume_id):
        """The chain of a guest that is not running, from the files'
        headers: ``(target, [(path, format)])``, top first."""
        chain = self._volume_chain(guest, instance_uuid, volume_id, False)
        files = [(chain.files[0], chain.fmt or 'raw')]
        while True:
            path, fmt = files[-1]
            if fmt != 'qcow2':
                break
            found = qemu_img.info(path, fmt)
            if not found.backing_file:
                break
            backing = os.path.join(os.path.dirname(path),
                                   found.backing_file)
            if backing in [f for f, _ in files]:
                raise exception.VolumeChainMismatch(
                    volume_id=volume_id, instance_id=instance_uuid,
                    reason='%s is its own backing file' % backing)
            files.append((backing, found.backing_file_format or 'raw'))
        return chain.target, files

    def _merge_offline(self, guest, instance_uuid, volume_id, file_to_merge,
                       merge_target_file):
        target, files = self._offline_chain(guest, instance_uuid, volume_id)
        paths = [path for path, _ in files]
        kind, index = self._merge_plan(paths, instance_uuid, volume_id,
                                       file_to_merge, merge_target_file)
        if kind is None:
            return False
        if kind == 'pull':
            base, fmt = (None, None) if index is None else files[index]
            qemu_img.rebase(paths[0], base and os.path.basename(base), fmt)
        else:
            base, fmt = files[index + 1]
            # The top file's data goes into its backing file, which then
            # reads as it did: the file above is backed by it instead.
            qemu_img.commit(paths[index])
            qemu_img.rebase_unsafe(paths[index - 1], os.path.basename(base),
                                   fmt)
        # A definition that names the old chain would give QEMU the wrong
        # files at the next start.
        xml = guest.xml(inactive=True)
        if '<backingStore' in xml:
            self.host.define(_without_backing_store(xml, target),
                             instance_uuid)
        LOG.info('%r (not running): %s of volume %s done with qemu-img',
                 guest, kind, volume_id)
        return True
