"""The volume API's samples of volume lists, metadata, image metadata and
actions (doc/api_samples/volume/), replayed."""

import uuid

import requests

from tests.functional.api_samples import samples
from tests.functional import helpers

VERSION = '3.71'


def test_the_volume_metadata_story(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait, name='data',
                                   metadata={'purpose': 'samples'})
    story = samples.Samples('volume', http, volume_id=volume['id'])
    path = '/volumes/%s' % volume['id']
    story.exchange('volumes-list-detail', 'GET', '/volumes/detail',
                   version=VERSION)
    story.exchange('volumes-summary', 'GET', '/volumes/summary',
                   version=VERSION)
    story.exchange('volume-metadata-list', 'GET', path + '/metadata',
                   version=VERSION)
    story.exchange('volume-metadata-replace', 'PUT', path + '/metadata',
                   {'metadata': {'purpose': 'samples', 'tier': 'gold'}},
                   version=VERSION)
    story.exchange('volume-metadata-show-key', 'GET',
                   path + '/metadata/tier', version=VERSION)
    story.exchange('volume-metadata-update-key', 'PUT',
                   path + '/metadata/tier', {'meta': {'tier': 'silver'}},
                   version=VERSION)
    story.exchange('volume-metadata-delete-key', 'DELETE',
                   path + '/metadata/tier', version=VERSION)

    image_metadata = {'os_distro': 'debian', 'hw_disk_bus': 'scsi'}
    story.exchange('volume-image-metadata-set', 'POST', path + '/action',
                   {'os-set_image_metadata': {'metadata': image_metadata}},
                   version=VERSION)
    story.exchange('volume-image-metadata-show', 'POST', path + '/action',
                   {'os-show_image_metadata': {}}, version=VERSION)
    story.exchange('volume-image-metadata-unset', 'POST', path + '/action',
                   {'os-unset_image_metadata': {'key': 'hw_disk_bus'}},
                   version=VERSION)

    image_name = 'data-' + uuid.uuid4().hex[:6]
    story.subs['image_name'] = image_name
    uploaded = story.exchange('volume-upload-image', 'POST',
                              path + '/action', {
                                  'os-volume_upload_image': {
                                      'image_name': image_name,
                                      'disk_format': 'raw',
                                      'container_format': 'bare',
                                      'force': False}},
                              version=VERSION)['os-volume_upload_image']
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    resp = requests.delete('%s/v2/images/%s' % (aio.image_url,
                                                uploaded['image_id']),
                           headers={'X-Auth-Token': 'admin:admin:admin'})
    assert resp.status_code == 204, resp.text
    resp = http.delete(path)
    assert resp.status_code == 202, resp.text


def test_the_volume_reset_status_story(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    admin = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                     roles=['admin'], version=VERSION)
    story = samples.Samples('volume', admin, volume_id=volume['id'])
    path = '/volumes/%s/action' % volume['id']
    story.exchange('volume-reset-status', 'POST', path, {
        'os-reset_status': {'status': 'error'}}, version=VERSION)
    resp = admin.post(path, json={
        'os-reset_status': {'status': 'maintenance'}})
    assert resp.status_code == 202, resp.text
    # Its owner cannot delete it in maintenance; an administrator forces.
    story.exchange('volume-force-delete', 'POST', path, {
        'os-force_delete': {}}, version=VERSION)
    wait(lambda: http.get('/volumes/%s' % volume['id']).status_code == 404,
         what='the volume gone')
