"""The volume API's samples of user messages and of os-retype
(doc/api_samples/volume/): the message of a volume no backend could
hold, listed, shown and deleted; a volume given another type."""

import uuid

from tests.functional.api_samples import samples
from tests.functional import helpers

VERSION = '3.71'


def _type(aio, **extra_specs):
    admin = aio.http('admin', 'admin', version=VERSION)
    resp = admin.post('/types', json={'volume_type': {
        'name': 'type-' + uuid.uuid4().hex[:8], 'extra_specs': extra_specs}})
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']


def test_the_messages_story(aio):
    http = aio.http(version=VERSION)
    vtype = _type(aio, vendor_name='nobody')
    resp = http.post('/volumes', json={'volume': {
        'size': 1, 'volume_type': vtype['id']}})
    assert resp.status_code == 202, resp.text
    volume_id = resp.json()['volume']['id']
    message = http.get('/messages').json()['messages'][0]
    story = samples.Samples('volume', http, volume_id=volume_id,
                            message_id=message['id'])
    story.exchange('messages-list', 'GET', '/messages', version=VERSION)
    story.exchange('message-show', 'GET', '/messages/%s' % message['id'],
                   version=VERSION)
    story.exchange('message-delete', 'DELETE',
                   '/messages/%s' % message['id'], version=VERSION)
    assert http.delete('/volumes/%s' % volume_id).status_code == 202


def test_the_retype_sample(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    vtype = _type(aio)
    story = samples.Samples('volume', http, volume_id=volume['id'],
                            type_name=vtype['name'])
    story.exchange('volume-retype', 'POST',
                   '/volumes/%s/action' % volume['id'],
                   {'os-retype': {'new_type': vtype['name'],
                                  'migration_policy': 'never'}},
                   version=VERSION)
    assert http.delete('/volumes/%s' % volume['id']).status_code == 202
