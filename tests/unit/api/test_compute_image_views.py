"""The /images view and filters: the image API's image in Nova's keys,
statuses and links, and Nova's filters in the image API's query."""

import datetime

import pytest
import webob

from tether.api.compute.views import images as views
from tether.compute.api import images as images_api
from tether.compute import exception

IMAGE = {
    'id': '6e2bd2b6-9d7f-4c1b-8b5e-0d5c3f3b9a11', 'name': 'snap',
    'status': 'active', 'visibility': 'private', 'protected': False,
    'os_hidden': False, 'checksum': 'c', 'os_hash_algo': 'sha512',
    'os_hash_value': 'h', 'owner': 'p', 'size': 1024, 'virtual_size': 1024,
    'container_format': 'bare', 'disk_format': 'raw',
    'created_at': '2026-11-27T10:00:00Z',
    'updated_at': '2026-11-27T11:00:00.123456+01:00', 'tags': [],
    'min_ram': 64, 'min_disk': 1, 'self': '/v2/images/x', 'file': '/f',
    'schema': '/v2/schemas/image', 'stores': 'file',
    'image_type': 'snapshot', 'block_device_mapping': '[{"boot_index": 0}]',
    'mappings': 'not JSON',
}


def _view(project=None):
    req = webob.Request.blank('/')
    req.urlvars = {'project_id': project} if project else {}
    return views.ImageView(req, 'http://glance.example.org')


def test_properties_are_what_is_not_an_attribute():
    assert images_api.properties(IMAGE) == {
        'image_type': 'snapshot',
        # Nova decodes the JSON text it stores (and keeps what is not).
        'block_device_mapping': [{'boot_index': 0}],
        'mappings': 'not JSON'}


@pytest.mark.parametrize('status,shown,progress', [
    ('active', 'ACTIVE', 100), ('queued', 'SAVING', 25),
    ('saving', 'SAVING', 50), ('deleted', 'DELETED', 0),
    ('pending_delete', 'DELETED', 0), ('killed', 'ERROR', 0),
    ('deactivated', 'UNKNOWN', 0), ('importing', 'UNKNOWN', 0),
    ('uploading', 'UNKNOWN', 0)])
def test_statuses(status, shown, progress):
    assert views.STATUSES.get(status, 'UNKNOWN') == shown
    assert views.PROGRESS.get(status, 0) == progress


def test_times_in_nova_format():
    assert views._time('2026-11-27T11:00:00.123456+01:00') == \
        '2026-11-27T10:00:00Z'
    assert views._time('2026-11-27T10:00:00Z') == '2026-11-27T10:00:00Z'
    assert views._time(None) is None


@pytest.mark.parametrize('value,shown', [
    ('True', 'AUTO'), ('true', 'AUTO'), ('1', 'AUTO'), ('False', 'MANUAL'),
    ('no', 'MANUAL'), (None, None)])
def test_disk_config(value, shown):
    image = dict(IMAGE, size=None)
    if value is not None:
        image['auto_disk_config'] = value
    assert image_detail(image).get('OS-DCF:diskConfig') == shown


def image_detail(image):
    return _view('p1').detail(image)


def test_server_and_size():
    detail = image_detail(dict(IMAGE, instance_uuid='s1', size=None))
    assert detail['server'] == {'id': 's1', 'links': [
        {'rel': 'self', 'href': 'http://localhost/v2.1/p1/servers/s1'},
        {'rel': 'bookmark', 'href': 'http://localhost/p1/servers/s1'}]}
    assert detail['OS-EXT-IMG-SIZE:size'] == 0
    assert 'server' not in image_detail(IMAGE)


def test_filters():
    since = datetime.datetime(2026, 11, 27, 10, 0, 0, 12)
    assert images_api.image_filters({
        'name': 'a:b', 'status': 'ACTIVE', 'server':
        'http://c.example.org/v2.1/p/servers/s1', 'type': 'snapshot',
        'minRam': '64', 'minDisk': '1', 'property-color': 'red',
        'limit': '2', 'marker': 'm', 'sort_key': 'name'},
        changes_since=since) == {
        'name': 'eq:a:b', 'status': 'eq:active', 'instance_uuid': 's1',
        'image_type': 'snapshot', 'min_ram': '64', 'min_disk': '1',
        'color': 'red', 'updated_at': 'gte:2026-11-27T10:00:00Z'}
    assert images_api.image_filters({'server': 's1'}) == {
        'instance_uuid': 's1'}
    for key in ('property-status', 'property-'):
        with pytest.raises(exception.InvalidInput) as caught:
            images_api.image_filters({key: 'x'})
        assert key in str(caught.value)
