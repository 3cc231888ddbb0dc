"""The compute API's samples of its image proxy (images, gone after
2.35; their metadata, gone after 2.38), replayed against the aio's real
Glance."""

import uuid

import pytest

from tests.functional.api_samples import samples
from tests.functional.compute import server_helpers as sh

VERSION = '2.35'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _image(user, name, **properties):
    """An image of ``properties`` made with the image API's own calls (no
    client's properties of its own), of 1 KiB of data."""
    resp = user.conn.image.post('/images', json=dict(
        name=name, disk_format='raw', container_format='bare',
        min_ram=64, min_disk=1, **properties))
    assert resp.status_code == 201, resp.text
    image_id = resp.json()['id']
    resp = user.conn.image.put(
        '/images/%s/file' % image_id, data=b'\0' * 1024,
        headers={'Content-Type': 'application/octet-stream'})
    assert resp.status_code == 204, resp.text
    return image_id


def test_the_image_proxy_story(cloud):
    user = cloud.project()
    server_id = str(uuid.uuid4())
    image_id = _image(user, 'snapshot-1', instance_uuid=server_id,
                      image_type='snapshot', auto_disk_config='True',
                      architecture='x86_64')
    story = samples.Samples('compute', user.compute(VERSION),
                            image_id=image_id, server_id=server_id)
    path = '/images/%s' % image_id
    story.exchange('images-list', 'GET', '/images?name=snapshot-1',
                   version=VERSION)
    story.exchange('images-list-detail', 'GET',
                   '/images/detail?type=snapshot&server=%s' % server_id,
                   version=VERSION)
    story.exchange('image-show', 'GET', path, version=VERSION)

    meta = path + '/metadata'
    story.exchange('image-metadata-list', 'GET', meta, version=VERSION)
    story.exchange('image-metadata-show', 'GET', meta + '/architecture',
                   version=VERSION)
    story.exchange('image-metadata-create', 'POST', meta,
                   {'metadata': {'os_distro': 'tiny', 'purpose': 'tests'}},
                   version=VERSION)
    story.exchange('image-metadata-update', 'PUT', meta + '/purpose',
                   {'meta': {'purpose': 'samples'}}, version=VERSION)
    story.exchange('image-metadata-delete', 'DELETE', meta + '/os_distro',
                   version=VERSION)
    story.exchange('image-metadata-update-all', 'PUT', meta,
                   {'metadata': {'architecture': 'x86_64',
                                 'auto_disk_config': 'False'}},
                   version=VERSION)
    story.exchange('image-delete', 'DELETE', path, version=VERSION)
