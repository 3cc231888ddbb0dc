"""Images with the openstack CLI, in the deployment's real Glance (behind
Keystone, its database on PostgreSQL): a volume made from an image, a
server booted from an image onto a new volume and rebuilt with another
image (its root volume re-imaged), a server on a local disk made from an
image, and a volume uploaded to a new image.

The images are the tiny Linux guest's (tools/guest/, the guest_images
fixture): a guest prints ``TETHER-GUEST-UP marker=tether-tiny-a`` (or
``-b``) on its serial console, which says which image it booted from.
"""

import hashlib
import urllib.error
import urllib.request

import pytest

from tests.integration.clients import GiB, unique, wait_for

A, B = 'tether-tiny-a', 'tether-tiny-b'
# m1.micro (128 MiB): the tiny guest's kernel needs more than 64.
FLAVOR = '2'
# rebuild with reimage_boot_volume.
REIMAGE_VERSION = '2.93'


class Made:
    """What the test made, deleted at its end whatever happened: the
    servers first (a root volume is free once its server is gone), then
    the volumes, then the images."""

    def __init__(self, cloud):
        self.cloud = cloud
        self.servers, self.volumes, self.images = [], [], []

    def delete(self):
        errors = []

        def attempt(fn, *args):
            try:
                fn(*args)
            except Exception as exc:  # noqa: BLE001 - each is tried
                errors.append(exc)

        compute = self.cloud.sdk('member').compute
        for server_id in self.servers:
            # A server whose create failed may still have made its root
            # volume.
            attempt(lambda: self.volumes.extend(
                v['id'] for v in compute.get_server(server_id).attached_volumes
                if v['id'] not in self.volumes))
        # One command for each kind: it deletes each of them, whatever
        # happens to the others.
        if self.servers:
            attempt(self.cloud.openstack, 'member', 'server', 'delete',
                    '--wait', *self.servers)
        if self.volumes:
            attempt(self._delete_volumes)
        if self.images:
            attempt(self.cloud.openstack, 'member', 'image', 'delete',
                    *self.images)
        assert not errors, errors

    def _delete_volumes(self):
        # Detached from their deleted servers a moment later.
        for volume_id in self.volumes:
            self.cloud.wait_for_volume('member', volume_id,
                                       lambda v: not v['attachments'],
                                       'detached')
        self.cloud.openstack('member', 'volume', 'delete', *self.volumes)
        for volume_id in self.volumes:
            self.cloud.wait_volume_gone('member', volume_id)


@pytest.fixture
def made(cloud):
    made = Made(cloud)
    yield made
    made.delete()


def _data_hash(path, size):
    """The md5 of the file at ``path`` followed by zeros up to ``size``
    bytes: what a volume of that size made of that raw image holds."""
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, 'rb') as f:
        data = f.read()
    digest.update(data)
    zeros = bytes(1024 * 1024)
    left = size - len(data)
    while left > 0:
        digest.update(zeros[:left])
        left -= len(zeros)
    return digest.hexdigest()


def test_glance_asks_keystone(cloud):
    """Glance's auth_token: no token, no images."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(cloud.deployment.glance.url + '/v2/images',
                               timeout=30)
    assert refused.value.code == 401


def test_images_volumes_servers_and_a_rebuild(cloud, guest_images, made):
    os_ = cloud.openstack
    project_id = cloud.project_id('demo')

    # 1. Two images, uploaded by a member.
    images = {}
    for marker in (A, B):
        name = unique(marker)
        image = os_('member', 'image', 'create', '--file',
                    guest_images[marker], '--disk-format', 'raw',
                    '--container-format', 'bare', name, '-f', 'json')
        made.images.append(image['id'])
        assert (image['name'], image['status'], image['owner']) == (
            name, 'active', project_id)
        images[marker] = image
    # Glance keeps them in its database on PostgreSQL.
    rows = cloud.deployment.db.psql(
        "SELECT id, owner FROM images WHERE status = 'active'", 'glance')
    assert {'%s|%s' % (images[m]['id'], project_id) for m in (A, B)} <= \
        set(rows.split())

    # 2. A volume made of image A: bootable, and says so.
    created = os_('member', 'volume', 'create', '--image',
                  images[A]['name'], '--size', '1', unique('v'), '-f', 'json')
    made.volumes.append(created['id'])
    volume = cloud.wait_volume('member', created['id'], 'available')
    assert volume['bootable'] == 'true'
    assert volume['volume_image_metadata']['image_id'] == images[A]['id']

    # 3. A server booted from image A onto a new volume.
    server = os_('member', 'server', 'create', '--image', images[A]['name'],
                 '--boot-from-volume', '1', '--flavor', FLAVOR, '--nic',
                 'none', '--wait', unique('s'), '-f', 'json')
    made.servers.append(server['id'])
    assert server['status'] == 'ACTIVE'
    [root_id] = [v['Volume ID'] for v in os_(
        'member', 'server', 'volume', 'list', server['id'], '-f', 'json')]
    made.volumes.append(root_id)
    root = cloud.get_volume('member', root_id)
    assert (root['status'], root['bootable']) == ('in-use', 'true')
    assert root['volume_image_metadata']['image_id'] == images[A]['id']
    assert cloud.wait_guest_up('member', server['id']) == [A]

    # 4. Rebuilt with image B: the same root volume, re-imaged.
    rebuilt = os_('member', 'server', 'rebuild', '--image',
                  images[B]['name'], '--reimage-boot-volume', '--wait',
                  server['id'], '-f', 'json',
                  compute_version=REIMAGE_VERSION)
    assert rebuilt['id'] == server['id']
    cloud.wait_server('member', server['id'])
    assert cloud.wait_guest_up('member', server['id']) == [B]
    root = cloud.get_volume('member', root_id)
    assert root['status'] == 'in-use'
    assert [a['server_id'] for a in root['attachments']] == [server['id']]
    assert root['volume_image_metadata']['image_id'] == images[B]['id']

    # 5. A server booted from image A onto a local disk.
    local = os_('member', 'server', 'create', '--image', images[A]['name'],
                '--flavor', FLAVOR, '--nic', 'none', '--wait', unique('s2'),
                '-f', 'json')
    made.servers.append(local['id'])
    assert local['status'] == 'ACTIVE'
    assert os_('member', 'server', 'volume', 'list', local['id'],
               '-f', 'json') == []
    assert cloud.wait_guest_up('member', local['id']) == [A]

    # 6. The volume of step 2 uploaded to a new image: all of its 1 GiB,
    # image A and the zeros after it.
    name = unique('img-from-vol')
    answer = os_('member', 'image', 'create', '--volume', volume['id'],
                 name, '-f', 'json')
    made.images.append(answer['image_id'])
    assert (answer['image_name'], answer['disk_format']) == (name, 'raw')

    def active():
        image = os_('member', 'image', 'show', answer['image_id'],
                    '-f', 'json')
        assert image['status'] in ('queued', 'saving', 'active'), image
        return image if image['status'] == 'active' else None
    uploaded = wait_for(active, 300, interval=0.5,
                        what='image %s to be active' % answer['image_id'])
    assert (uploaded['name'], uploaded['owner'], uploaded['size']) == (
        name, project_id, GiB)
    assert uploaded['checksum'] == _data_hash(guest_images[A], GiB)
    cloud.wait_volume('member', volume['id'], 'available')
