"""Images for the functional tests: disks (helpers.disk_bytes) uploaded
to the aio's real Glance with openstacksdk, and what a volume holds, read
with qemu-img (no tether code replaced)."""

import contextlib
import errno
import hashlib
import io
import os
import sqlite3
import subprocess
import threading
import uuid

from oslo_config import cfg
import pytest

from tests.functional import helpers

from tether import images

CONF = cfg.CONF
MiB = helpers.MiB
# How the volume host gets an image's data: from the file of the image
# API's filesystem store, read where it lies (the aio's default), or
# downloaded through the image API (a store on another host).
TRANSFERS = ('store-file', 'download')


def upload(conn, data, disk_format='raw', **attrs):
    image = conn.image.create_image(
        name=attrs.pop('name', 'img-' + uuid.uuid4().hex[:8]),
        data=io.BytesIO(data), disk_format=disk_format,
        container_format=attrs.pop('container_format', 'bare'), **attrs)
    return conn.image.get_image(image.id)


def upload_file(conn, path, disk_format='raw', **attrs):
    with open(path, 'rb') as f:
        return upload(conn, f.read(), disk_format, **attrs)


def stored_path(aio, image_id):
    """The file of an image in the file store of the aio's Glance."""
    return os.path.join(aio.impl.glance.state_dir, 'images', image_id)


@contextlib.contextmanager
def fed_slowly(aio, image_id):
    """The image's file in the store of the aio's Glance swapped for a
    FIFO that the test feeds, a real slow image source: the volume
    manager, which reads no FIFO where it lies, downloads the image
    through the image API, whose read of the FIFO waits for the test.
    ``entered()`` is true once the image API has opened the FIFO (the
    test then keeps a writer on it, so that the image API's read, and
    the manager's download with it, wait); ``release()`` writes the
    image's real bytes and closes, and the download ends whole. The file
    is put back at the end: a later download of the image reads it."""
    path = stored_path(aio, image_id)
    aside = path + '.fed-by-test'
    os.rename(path, aside)
    os.mkfifo(path)
    writer = []

    def entered():
        # A reader waits in open(2): a writer's open succeeds (and lets
        # the reader's open return). Without one, it fails with ENXIO.
        if not writer:
            try:
                writer.append(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError as exc:
                if exc.errno != errno.ENXIO:
                    raise
        return bool(writer)

    def release():
        if not entered():
            return
        fd = writer.pop()
        os.set_blocking(fd, True)
        try:
            with open(aside, 'rb') as f:
                while chunk := f.read(1024 * 1024):
                    os.write(fd, chunk)
        except BrokenPipeError:
            pass
        finally:
            os.close(fd)
    try:
        yield entered, release
    finally:
        while writer:
            os.close(writer.pop())
        os.unlink(path)
        os.rename(aside, path)


def qemu_img(*args):
    subprocess.run(['qemu-img', *args], check=True, capture_output=True)


def volume_content(aio, volume_id):
    """The bytes a guest would read from the volume."""
    path = aio.volume_path(volume_id)
    out = path + '.raw'
    fmt = helpers.virtual_size(path)[1]
    qemu_img('convert', '-U', '-f', fmt, '-O', 'raw', path, out)
    try:
        with open(out, 'rb') as f:
            return f.read()
    finally:
        os.unlink(out)


def conversion_dir_is_empty(aio):
    directory = os.path.join(aio.state_dir, 'conversion')
    return not os.path.isdir(directory) or os.listdir(directory) == []


def wait_status(conn, volume, status, wait, timeout=60):
    return wait(lambda: (v := conn.block_storage.get_volume(volume.id))
                .status == status and v, timeout=timeout,
                what='volume %s %s' % (volume.id, status))


def unchecked_image(aio, conn, data, disk_format, virtual_size=None):
    """An image whose data Glance 33 did not inspect: one an older Glance
    took (before 2024 it stored any bytes under any disk_format), still
    served after the upgrade. Glance 33 refuses such an upload, so the
    test puts the data in Glance's file store and its size and hashes in
    Glance's database, as that older Glance would have; Glance then
    serves it as it serves any image."""
    image = upload(conn, b'placeholder')
    with open(stored_path(aio, image.id), 'wb') as f:
        f.write(data)
    database = sqlite3.connect(os.path.join(aio.impl.glance.state_dir,
                                            'glance.sqlite'))
    with database:
        database.execute(
            'UPDATE images SET size = ?, checksum = ?, os_hash_algo = ?, '
            'os_hash_value = ?, disk_format = ?, virtual_size = ? '
            'WHERE id = ?',
            (len(data), hashlib.md5(data).hexdigest(), 'sha512',
             hashlib.sha512(data).hexdigest(), disk_format, virtual_size,
             image.id))
    database.close()
    image = conn.image.get_image(image.id)
    assert (image.size, image.disk_format) == (len(data), disk_format)
    return image


def tamper(aio, image_id, offset=3 * MiB, data=b'tampered'):
    """Change the bytes of an image in Glance's store: its hash no longer
    matches what Glance recorded."""
    with open(stored_path(aio, image_id), 'r+b') as f:
        f.seek(offset)
        f.write(data)


class Downloads:
    """Counts the downloads of images by tether (the compute host's, the
    volume host's). A spy, set with pytest's ``monkeypatch``: every call
    goes through to the real client (and the real Glance), once
    ``before()`` returned."""

    def __init__(self, monkeypatch, before=lambda: None):
        self.calls = []
        self.lock = threading.Lock()
        real = images.ImageClient.download

        def download(client, image, path):
            with self.lock:
                self.calls.append(image['id'])
            before()
            return real(client, image, path)
        monkeypatch.setattr(images.ImageClient, 'download', download)


def lookups(monkeypatch):
    """The ids of the images tether's services look up in the image API
    (ImageClient.get), in order: a spy, set with pytest's
    ``monkeypatch``; every call goes through to the real client."""
    seen = []
    get = images.ImageClient.get

    def counted_get(client, image_id):
        seen.append(image_id)
        return get(client, image_id)
    monkeypatch.setattr(images.ImageClient, 'get', counted_get)
    return seen


class Transfer:
    """Counts what the volume host read of images: ``downloads`` through
    the image API (every one goes through ImageClient.chunks) and
    ``store_files`` read where they lie; and the images tether's services
    ``looked_up`` in the image API (ImageClient.get). A spy, set with
    pytest's ``monkeypatch``: every call goes through to the real
    client."""

    def __init__(self, monkeypatch, how):
        self.how = how
        self.downloads = []
        self.store_files = []
        self.looked_up = lookups(monkeypatch)
        chunks = images.ImageClient.chunks
        local_file = images.ImageClient.local_file

        def counted_chunks(client, image):
            self.downloads.append(image['id'])
            return chunks(client, image)

        def counted_local_file(client, image):
            path = local_file(client, image)
            if path is not None:
                self.store_files.append(image['id'])
            return path
        monkeypatch.setattr(images.ImageClient, 'chunks', counted_chunks)
        monkeypatch.setattr(images.ImageClient, 'local_file',
                            counted_local_file)

    def read_once(self, image_id):
        """Whether the image's data was read once, the way asked."""
        return ((self.store_files, self.downloads) == ([image_id], [])
                if self.how == 'store-file' else
                (self.store_files, self.downloads) == ([], [image_id]))


@pytest.fixture(params=TRANSFERS)
def image_transfer(request, monkeypatch):
    """The test once with each way of TRANSFERS; a Transfer."""
    before = CONF.image.allowed_direct_url_schemes
    if request.param == 'download':
        CONF.set_override('allowed_direct_url_schemes', [], group='image')
    try:
        yield Transfer(monkeypatch, request.param)
    finally:
        CONF.set_override('allowed_direct_url_schemes', before,
                          group='image')
