"""The volume API's samples of the actions the compute service sends for
the features: the completion of an extend that waited for the compute
host, and an image written over a volume (doc/api_samples/volume/),
replayed."""

import uuid

from tests.functional.api_samples import samples
from tests.functional import helpers
from tests.functional import image_helpers

VERSION = '3.71'


def test_the_extend_completion_story(aio, wait):
    """The compute host grew the guest's disk and says so, with the
    service's token (the extend is made waiting through the database,
    so that no compute host answers first)."""
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    helpers.extend_waiting(volume['id'], 2)
    service = aio.http('tether-compute', 'service-' + uuid.uuid4().hex[:8],
                       roles=['service'], version=VERSION)
    story = samples.Samples('volume', service, volume_id=volume['id'])
    story.exchange('volume-extend-completion', 'POST',
                   '/volumes/%s/action' % volume['id'],
                   {'os-extend_volume_completion': {'error': False}},
                   version=VERSION)
    shown = helpers.wait_until_status(http, volume['id'], 'available', wait)
    assert shown['size'] == 2
    resp = http.delete('/volumes/%s' % volume['id'])
    assert resp.status_code == 202, resp.text


def test_the_reimage_story(aio, wait):
    conn = aio.sdk()
    http = aio.http(conn.test_user, conn.test_project, version=VERSION)
    image = image_helpers.upload(conn, helpers.disk_bytes(b'new image'),
                                 name='debian-12')
    volume = helpers.create_volume(http, wait_for=wait)
    story = samples.Samples('volume', http, volume_id=volume['id'],
                            image_id=image.id)
    story.exchange('volume-reimage', 'POST',
                   '/volumes/%s/action' % volume['id'],
                   {'os-reimage': {'image_id': image.id,
                                   'reimage_reserved': False}},
                   version=VERSION)
    shown = helpers.wait_until_status(http, volume['id'], 'available', wait)
    assert shown['volume_image_metadata']['image_id'] == image.id
    resp = http.delete('/volumes/%s' % volume['id'])
    assert resp.status_code == 202, resp.text
    conn.image.delete_image(image.id)
