"""Image data checked against what the image API (Glance) recorded:
its size, and the ``os_hash_value`` of ``os_hash_algo`` (else the md5
``checksum``); a mismatch is ImageCorrupt. Used by tether.images for the
downloads, and for the image API's own files that a host reads where
they lie (:class:`FileCheck`)."""

import collections
import hashlib
import os
import queue
import threading

from tether import exception

CHUNK = 1024 * 1024


class FileCheck:
    """The size and hash of the file ``path`` (the image API's stored
    copy of ``image``, see :meth:`tether.images.ImageClient.local_file`)
    checked against what the image API recorded, in a thread of its own
    while the caller already converts the file: the caller trusts what it
    made only once :meth:`wait` returned (else ImageCorrupt).

    A file found good is not read again while it stays the same file
    (device, inode, size, modification and change times): image data
    never changes in the image API, any write to the file changes its
    change time, and hashing is most of the cost of a volume made this
    way (sha256 reads 1.7 GB/s here; the kernel copies 4 GB/s). The
    process remembers the last MAX_REMEMBERED files."""

    MAX_REMEMBERED = 1024
    _good = collections.OrderedDict()
    _lock = threading.Lock()

    def __init__(self, image, path):
        self.image = image
        self.path = path
        self.error = None
        self.thread = threading.Thread(target=self._run, daemon=True,
                                       name='image-file-check')
        self.thread.start()

    @staticmethod
    def _identity(image, st):
        return (image['id'], image.get('os_hash_value'),
                image.get('checksum'), image.get('size'), st.st_dev,
                st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def _run(self):
        try:
            with open(self.path, 'rb') as f:
                key = self._identity(self.image, os.fstat(f.fileno()))
                with self._lock:
                    if key in self._good:
                        self._good.move_to_end(key)
                        return
                self._check(f)
            with self._lock:
                self._good[key] = True
                while len(self._good) > self.MAX_REMEMBERED:
                    self._good.popitem(last=False)
        except OSError as exc:
            self.error = exception.ImageServiceUnavailable(
                reason='the file of image %s could not be read: %s'
                       % (self.image['id'], exc))
        except exception.ImageCorrupt as exc:
            self.error = exc

    def _check(self, f):
        digest, expected = recorded_hash(self.image)
        size = 0
        while True:
            chunk = f.read(CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if digest is not None:
                digest.update(chunk)
        check_recorded(self.image, size, digest,
                       digest.hexdigest() if digest else None, expected)

    def wait(self):
        self.thread.join()
        if self.error is not None:
            raise self.error


def recorded_hash(image):
    """(a new digest, the hex value the image API recorded) of the hash
    ``image`` carries: ``os_hash_value`` of ``os_hash_algo``, else the
    md5 ``checksum``; (None, None) if it has neither."""
    algo = image.get('os_hash_algo')
    if algo and image.get('os_hash_value'):
        return hashlib.new(algo), image['os_hash_value']
    if image.get('checksum'):
        return hashlib.md5(usedforsecurity=False), image['checksum']
    return None, None


def check_recorded(image, size, digest, hexdigest, expected):
    """ImageCorrupt unless ``size`` and ``hexdigest`` are what the image
    API recorded of ``image``."""
    if image.get('size') is not None and size != image['size']:
        raise exception.ImageCorrupt(
            image_id=image['id'],
            reason='%s bytes came, the image API recorded %s'
                   % (size, image['size']))
    if digest is not None and hexdigest != expected:
        raise exception.ImageCorrupt(
            image_id=image['id'],
            reason='its %s hash is not the one the image API recorded'
                   % digest.name)


class Hasher:
    """A digest fed from a thread of its own: hashlib lets go of the GIL
    on large buffers, so the hash of one chunk runs while the next one
    is read and written."""

    def __init__(self, digest, depth=8):
        self.digest = digest
        self.queue = queue.Queue(maxsize=depth)
        self.thread = threading.Thread(target=self._run, daemon=True,
                                       name='image-hash')
        self.thread.start()

    def _run(self):
        while True:
            chunk = self.queue.get()
            if chunk is None:
                return
            self.digest.update(chunk)

    def update(self, chunk):
        self.queue.put(chunk)

    def finish(self):
        """The hex digest of everything given (waits for the thread)."""
        self.queue.put(None)
        self.thread.join()
        return self.digest.hexdigest()
