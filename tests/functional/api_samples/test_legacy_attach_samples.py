"""The volume API's samples of Cinder's legacy attach actions
(doc/api_samples/volume/volume-reserve.json ...), replayed, in the order
the compute service used them before the attachments API."""

from tests.functional.api_samples import samples
from tests.functional import helpers

VERSION = '3.71'
INSTANCE = '0b5c0f2a-4c1d-4f3e-9a8b-7c6d5e4f3a21'
CONNECTOR = {'host': 'compute-1', 'initiator': 'iqn.1993-08.org.debian:01:1',
             'mountpoint': '/dev/vdb', 'mode': 'rw'}


def _action(story, name, body, volume_id):
    return story.exchange(name, 'POST', '/volumes/%s/action' % volume_id,
                          body, version=VERSION)


def _plain(http, volume_id, body):
    resp = http.post('/volumes/%s/action' % volume_id, json=body)
    assert resp.status_code in (200, 202), resp.text


def test_the_legacy_attach_story(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    vid = volume['id']
    story = samples.Samples('volume', http, volume_id=vid,
                            instance_id=INSTANCE, share=aio.own_share_dir)
    _action(story, 'volume-reserve', {'os-reserve': None}, vid)
    helpers.wait_until_status(http, vid, 'attaching', wait)
    _action(story, 'volume-unreserve', {'os-unreserve': None}, vid)
    helpers.wait_until_status(http, vid, 'available', wait)

    _plain(http, vid, {'os-reserve': None})
    _action(story, 'volume-initialize-connection',
            {'os-initialize_connection': {'connector': CONNECTOR}}, vid)
    _action(story, 'volume-attach',
            {'os-attach': {'instance_uuid': INSTANCE,
                           'mountpoint': '/dev/vdb', 'mode': 'rw'}}, vid)
    attachment_id = http.get('/volumes/%s' % vid).json()['volume'][
        'attachments'][0]['attachment_id']
    story.subs['attachment_id'] = attachment_id
    helpers.wait_until_status(http, vid, 'in-use', wait)
    _action(story, 'volume-begin-detaching', {'os-begin_detaching': None},
            vid)
    helpers.wait_until_status(http, vid, 'detaching', wait)
    _action(story, 'volume-roll-detaching', {'os-roll_detaching': None},
            vid)
    helpers.wait_until_status(http, vid, 'in-use', wait)

    _plain(http, vid, {'os-begin_detaching': None})
    _action(story, 'volume-terminate-connection',
            {'os-terminate_connection': {'connector': CONNECTOR}}, vid)
    _action(story, 'volume-detach',
            {'os-detach': {'attachment_id': attachment_id}}, vid)
    helpers.wait_until_status(http, vid, 'available', wait)

    # An administrator's detach of an attachment its user left behind.
    _plain(http, vid, {'os-attach': {'host_name': 'node-1',
                                     'mountpoint': '/dev/sdb'}})
    attachment_id = http.get('/volumes/%s' % vid).json()['volume'][
        'attachments'][0]['attachment_id']
    admin = aio.http('admin', 'admin', version=VERSION)
    story = samples.Samples('volume', admin, volume_id=vid,
                            attachment_id=attachment_id)
    _action(story, 'volume-force-detach',
            {'os-force_detach': {'attachment_id': attachment_id}}, vid)
    helpers.wait_until_status(http, vid, 'available', wait)
