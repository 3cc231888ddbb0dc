"""What the rebuild tests share (test_rebuild.py, test_rebuild_refusals.py):
the tiny guest's images, volumes made of images, the rebuild request.

Servers boot from volumes made from images in the aio's Glance: the
tiny test guest (``tether-tiny-a``, ``tether-tiny-b``) where a test looks
inside, an image with no operating system where it does not (the guest
then just holds its disks, which is all a flow needs).
"""

import io
import uuid

from oslo_config import cfg
import pytest
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers


CONF = cfg.CONF
MiB = 1024 ** 2
GiB = 1024 ** 3
TINY_A, TINY_B = 'tether-tiny-a', 'tether-tiny-b'
# m1.micro (128 MiB): the tiny guest's kernel needs more than 64.
FLAVOR = '2'
V2_92, V2_93 = '2.92', '2.93'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture(scope='module')
def tiny(aio, guest_images):
    """{marker: image id} of the tiny guest's images, public in Glance."""
    admin = aio.admin()
    found = {}
    for marker in (TINY_A, TINY_B):
        with open(guest_images[marker], 'rb') as f:
            image = admin.image.create_image(
                name='%s-%s' % (marker, uuid.uuid4().hex[:6]), data=f,
                disk_format='raw', container_format='bare',
                visibility='public')
        found[marker] = image.id
    yield found
    for image_id in found.values():
        admin.image.delete_image(image_id, ignore_missing=True)


def no_os_image(conn, marker=b'no os'):
    """An image with a partition table and no operating system."""
    image = conn.image.create_image(
        name='no-os-' + uuid.uuid4().hex[:6],
        data=io.BytesIO(helpers.disk_bytes(marker)),
        disk_format='raw', container_format='bare')
    return image.id


def volume_from(user, image_id, size=1):
    volume = helpers.create_volume(user.volumes('3.71'), size=size,
                                   imageRef=image_id, wait_for=user.wait)
    user.cloud.volumes.append((user, volume['id']))
    return volume


def rebuild(user, server_id, image_id, version=V2_93, **body):
    return user.action(server_id, {'rebuild': dict(imageRef=image_id,
                                                   **body)}, version)


def booted_from_image(user, image_id=None):
    """A server on a volume made from ``image_id`` (an image without an
    OS if not given): (server, root volume)."""
    root = volume_from(user, image_id or no_os_image(user.conn))
    return user.boot(root), root
