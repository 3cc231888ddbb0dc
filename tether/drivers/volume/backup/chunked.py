"""Backups as compressed pieces in a repository of named objects, as
Cinder's chunked drivers keep them (a base class: the repository's
objects are files for the posix driver).

A backup is, under its container and its prefix:

* ``<prefix>-00001``, ``<prefix>-00002`` ...: the volume's data, each
  piece ``file_size`` bytes at most before compression (a full backup:
  the whole volume, in order; an incremental one: only the runs of
  blocks that changed since its parent);
* ``<prefix>_sha256file``: the SHA-256 of every block of
  ``sha_block_size`` bytes of the volume (what the next incremental
  backup compares with);
* ``<prefix>_metadata``: each piece's offset, length, compression and
  MD5, and the volume's metadata; written last, so a backup with it is
  whole.

Both JSON files have the keys and the version (1.0.0) of Cinder's, so
either reads the other's backups.
"""

import hashlib
import json
import os
import zlib

from oslo_log import log as logging

from tether.drivers.volume.backup import data as raw
from tether.drivers.volume.backup import driver
from tether.volume import backup_exception as exception

LOG = logging.getLogger(__name__)
VERSION = '1.0.0'
# Zeros are written into a volume in pieces of this size (an all-zero
# piece only where the volume does not read zeros already).
WRITE_PIECE = 1024 * 1024
# The suffix of an object being written (a repository may list it).
PARTIAL = '.tmp'


class ChunkedBackupDriver(driver.BackupDriver):
    """The pieces and their JSON files; a subclass stores the objects
    (``put_container``, ``list_objects``, ``write_object``,
    ``read_object``, ``delete_object``, ``default_container``)."""

    def __init__(self, file_size, sha_block_size, compression):
        if file_size % sha_block_size:
            raise exception.BackupDriverError(
                reason='[backup] file_size (%d) is not a multiple of '
                       'sha_block_size (%d)' % (file_size, sha_block_size))
        self.file_size = file_size
        self.sha_block_size = sha_block_size
        if compression.lower() in raw.NONE:
            self.compression, self.compress = 'none', None
        else:
            self.compression = compression.lower()
            self.compress = raw.COMPRESSORS[self.compression][0]
        self._zeros = bytes(file_size)
        self._zero_block_sha = hashlib.sha256(
            self._zeros[:sha_block_size]).hexdigest()
        # An all-zero piece of each length, as stored: (compression,
        # bytes, md5). Most of most volumes is zeros.
        self._zero_pieces = {}

    # Names -----------------------------------------------------------------

    @staticmethod
    def object_name(prefix, index):
        return '%s-%05d' % (prefix, index)

    @staticmethod
    def metadata_name(prefix):
        return '%s_metadata' % prefix

    @staticmethod
    def sha256_name(prefix):
        return '%s_sha256file' % prefix

    @staticmethod
    def make_prefix(ref, timestamp):
        return 'volume_%s_%s_backup_%s' % (ref.volume_id, timestamp, ref.id)

    # JSON files ------------------------------------------------------------

    def _header(self, ref):
        return {'version': VERSION, 'backup_id': ref.id,
                'volume_id': ref.volume_id, 'backup_name': ref.name,
                'backup_description': ref.description,
                'created_at': ref.created_at}

    def _write_json(self, ref, name, values):
        self.write_object(ref.container, name,
                          json.dumps(values, sort_keys=True,
                                     indent=2).encode('utf-8'))

    def read_json(self, ref, name):
        try:
            values = json.loads(self.read_object(ref.container, name))
        except (OSError, ValueError) as exc:
            raise exception.BackupDriverError(
                reason='%s of backup %s cannot be read: %s'
                       % (name, ref.id, exc))
        if not isinstance(values, dict) or \
                values.get('version') != VERSION:
            raise exception.BackupDriverError(
                reason='%s of backup %s is not a version %s file'
                       % (name, ref.id, VERSION))
        return values

    # Backup ----------------------------------------------------------------

    def _shas(self, data, zero):
        size = self.sha_block_size
        if zero and len(data) % size == 0:
            return [self._zero_block_sha] * (len(data) // size)
        view = memoryview(data)
        return [hashlib.sha256(view[i:i + size]).hexdigest()
                for i in range(0, len(data), size)]

    def _stored(self, data, zero):
        """(compression, bytes as stored, md5 of the data) of a piece."""
        if zero and len(data) in self._zero_pieces:
            return self._zero_pieces[len(data)]
        md5 = hashlib.md5(data, usedforsecurity=False).hexdigest()
        stored = ('none', data, md5)
        if self.compress is not None:
            packed = self.compress(data)
            if len(packed) < len(data):
                stored = (self.compression, packed, md5)
        if zero:
            self._zero_pieces[len(data)] = stored
        return stored

    def _read_piece(self, source):
        """The next piece of ``source``; a hole is not read."""
        hole = raw.hole_length(source, self.file_size)
        if hole == self.file_size:
            source.seek(hole, os.SEEK_CUR)
            return self._zeros
        return raw.read_full(source, self.file_size)

    def _put(self, ref, index, data, offset, zero):
        compression, body, md5 = self._stored(data, zero)
        name = self.object_name(ref.prefix, index)
        self.write_object(ref.container, name, body)
        return {name: {'offset': offset, 'length': len(data),
                       'compression': compression, 'md5': md5}}

    def backup(self, ref, source, parent=None, volume_meta=None,
               keep_going=None):
        parent_shas = None
        if parent is not None:
            shafile = self.read_json(parent, self.sha256_name(parent.prefix))
            if shafile.get('chunk_size') != self.sha_block_size:
                raise exception.InvalidBackup(
                    reason='the hash block size changed since the last '
                           'backup (%s bytes, now %s): make a full backup'
                           % (shafile.get('chunk_size'),
                              self.sha_block_size))
            parent_shas = shafile['sha256s']
        # What an interrupted run left (a run again replaces it).
        self._delete_objects(ref, keep_json=False)
        objects, shas, offset = [], [], 0
        while True:
            if keep_going is not None:
                keep_going()
            data = self._read_piece(source)
            if not data:
                break
            zero = data is self._zeros or data == self._zeros[:len(data)]
            block_shas = self._shas(data, zero)
            if parent_shas is None:
                extents = [(0, len(data))]
            else:
                extents = raw.changed_extents(
                    block_shas, parent_shas, len(shas),
                    self.sha_block_size, len(data))
            for start, end in extents:
                piece = data if (start, end) == (0, len(data)) \
                    else data[start:end]
                objects.append(self._put(ref, len(objects) + 1, piece,
                                         offset + start, zero))
            shas.extend(block_shas)
            offset += len(data)
        self._write_json(ref, self.sha256_name(ref.prefix), dict(
            self._header(ref), chunk_size=self.sha_block_size,
            sha256s=shas))
        self._write_json(ref, self.metadata_name(ref.prefix), dict(
            self._header(ref), objects=objects, parent_id=ref.parent_id,
            volume_meta=volume_meta))
        LOG.info('Backup %s: %d bytes read, %d objects written%s',
                 ref.id, offset, len(objects),
                 ' (incremental on %s)' % parent.id if parent else '')
        return len(objects)

    # Restore ---------------------------------------------------------------

    def _objects_of(self, ref):
        """The pieces the metadata file lists, checked against what the
        container holds."""
        metadata = self.read_json(ref, self.metadata_name(ref.prefix))
        listed = [name for item in metadata['objects'] for name in item]
        stored = {name for name in self.list_objects(ref.container,
                                                     ref.prefix)
                  if not name.endswith(PARTIAL)} - {
            self.metadata_name(ref.prefix), self.sha256_name(ref.prefix)}
        if set(listed) != stored:
            raise exception.BackupDriverError(
                reason='the objects of backup %s are not those its '
                       'metadata lists (%d listed, %d stored)'
                       % (ref.id, len(listed), len(stored)))
        return metadata

    def _write_zeros(self, target, offset, length):
        """Zeros where the target does not read zeros already (a hole
        stays a hole)."""
        end = offset + length
        while offset < end:
            size = min(WRITE_PIECE, end - offset)
            target.seek(offset)
            hole = raw.hole_length(target, size)
            if hole:
                offset += hole
                continue
            current = target.read(size)
            if current.count(0) != len(current):
                target.seek(offset)
                target.write(self._zeros[:size])
            offset += size

    def _write_piece(self, target, offset, data):
        """Write ``data`` at ``offset``; its all-zero parts only where
        the target does not read zeros already (a file stays sparse)."""
        for start in range(0, len(data), WRITE_PIECE):
            part = data[start:start + WRITE_PIECE]
            if part == self._zeros[:len(part)]:
                self._write_zeros(target, offset + start, len(part))
            else:
                target.seek(offset + start)
                target.write(part)

    def _is_zero_piece(self, info, body):
        """Whether a stored piece is the zero piece of its length this
        driver stores (its bytes and MD5 the same): then it is not
        decompressed."""
        stored = self._zero_pieces.get(info['length'])
        if stored is None and info['length'] <= self.file_size:
            stored = self._stored(self._zeros[:info['length']], True)
        return (stored is not None and stored[0] == info.get('compression')
                and stored[2] == info['md5'] and stored[1] == body)

    def _restore_one(self, ref, target, keep_going):
        metadata = self._objects_of(ref)
        for item in metadata['objects']:
            if keep_going is not None:
                keep_going()
            name, info = next(iter(item.items()))
            body = self.read_object(ref.container, name)
            if self._is_zero_piece(info, body):
                self._write_zeros(target, info['offset'], info['length'])
                continue
            decompress = raw.decompressor(info.get('compression'))
            try:
                data = decompress(body) if decompress is not None else body
            except (zlib.error, OSError, ValueError):
                data = None
            del body
            if data is None or len(data) != info['length'] or hashlib.md5(
                    data, usedforsecurity=False).hexdigest() != info['md5']:
                raise exception.BackupDriverError(
                    reason='object %s of backup %s is damaged (it does '
                           'not decompress to the length and MD5 its '
                           'metadata says)'
                           % (name, ref.id))
            self._write_piece(target, info['offset'], data)
        return metadata.get('volume_meta')

    def restore(self, chain, target, keep_going=None):
        volume_meta = None
        for ref in chain:
            volume_meta = self._restore_one(ref, target, keep_going)
        target.flush()
        return volume_meta

    # Delete and verify -----------------------------------------------------

    def _delete_objects(self, ref, keep_json=False):
        if ref.container is None or ref.prefix is None:
            return
        keep = {self.metadata_name(ref.prefix),
                self.sha256_name(ref.prefix)} if keep_json else set()
        # The metadata file first: a backup without it is not whole.
        names = sorted(self.list_objects(ref.container, ref.prefix),
                       key=lambda n: not n.endswith('_metadata'))
        for name in names:
            if name not in keep:
                self.delete_object(ref.container, name)

    def delete(self, ref):
        self._delete_objects(ref)
        if ref.container is not None:
            self.remove_container(ref.container)

    def verify(self, ref):
        self._objects_of(ref)
        self.read_json(ref, self.sha256_name(ref.prefix))

    # The repository (subclasses) -------------------------------------------

    def put_container(self, container):
        raise NotImplementedError()

    def remove_container(self, container):
        """Remove the container if it is empty and the driver made it."""

    def list_objects(self, container, prefix):
        """The names of the container's objects that start with
        ``prefix``, those being written (ending with PARTIAL) too."""
        raise NotImplementedError()

    def write_object(self, container, name, data):
        raise NotImplementedError()

    def read_object(self, container, name):
        raise NotImplementedError()

    def delete_object(self, container, name):
        raise NotImplementedError()
