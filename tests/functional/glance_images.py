"""Images in the aio's real Glance for the tests: small disks made here,
uploads as users make them, and the images an older Glance would have
taken (shared by the volume and compute tests)."""

import hashlib
import io
import os
import sqlite3
import subprocess
import threading
import uuid

from tether import images

MiB = 1024 ** 2


def disk_bytes(marker=b'tether image', size=4 * MiB):
    """A raw disk: an MBR with one partition, a marker at 3 MiB."""
    data = bytearray(size)
    data[446:462] = (bytes([0x80, 0, 0, 0, 0x06, 0, 0, 0])
                     + (2048).to_bytes(4, 'little')
                     + ((size // 512) - 2048).to_bytes(4, 'little'))
    data[510:512] = b'\x55\xaa'
    data[3 * MiB:3 * MiB + len(marker)] = marker
    return bytes(data)


def upload(conn, data, disk_format='raw', **attrs):
    """Upload ``data`` with the openstacksdk connection ``conn``; the
    image as Glance shows it then (active)."""
    image = conn.image.create_image(
        name=attrs.pop('name', 'img-' + uuid.uuid4().hex[:8]),
        data=io.BytesIO(data), disk_format=disk_format,
        container_format=attrs.pop('container_format', 'bare'), **attrs)
    return conn.image.get_image(image.id)


def upload_file(conn, path, disk_format='raw', **attrs):
    with open(path, 'rb') as f:
        return upload(conn, f.read(), disk_format, **attrs)


def qemu_img(*args):
    subprocess.run(['qemu-img', *args], check=True, capture_output=True)


def stored_path(aio, image_id):
    """The file of an image in the file store of the aio's Glance."""
    return os.path.join(aio.impl.glance.state_dir, 'images', image_id)


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
