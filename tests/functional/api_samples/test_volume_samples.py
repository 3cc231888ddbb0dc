"""The volume API's samples (doc/api_samples/volume/), replayed: each
exchange of a story must answer what its sample says."""

from tests.functional.api_samples import samples
from tests.functional import helpers

INSTANCE = '0b5c0f2a-4c1d-4f3e-9a8b-7c6d5e4f3a21'
CONNECTOR = {'host': 'compute-1', 'initiator': 'iqn.1993-08.org.debian:01:1',
             'mountpoint': '/dev/vdb', 'mode': 'rw'}


def test_the_attachments_story(aio, wait):
    http = aio.http(version='3.54')
    volume = helpers.create_volume(http, wait_for=wait)
    story = samples.Samples('volume', http, volume_id=volume['id'],
                            instance_id=INSTANCE,
                            share=aio.own_share_dir)
    created = story.exchange('attachment-create', 'POST', '/attachments', {
        'attachment': {'volume_uuid': volume['id'],
                       'instance_uuid': INSTANCE, 'mode': 'rw'}},
        version='3.54')['attachment']
    story.subs['attachment_id'] = created['id']
    story.exchange('attachment-show', 'GET',
                   '/attachments/%s' % created['id'], version='3.54')
    story.exchange('attachments-list', 'GET', '/attachments',
                   version='3.54')
    story.exchange('attachment-update', 'PUT',
                   '/attachments/%s' % created['id'],
                   {'attachment': {'connector': CONNECTOR}}, version='3.54')
    story.exchange('attachment-complete', 'POST',
                   '/attachments/%s/action' % created['id'],
                   {'os-complete': {}}, version='3.54')
    story.exchange('attachments-list-detail', 'GET', '/attachments/detail',
                   version='3.54')
    story.exchange('attachment-delete', 'DELETE',
                   '/attachments/%s' % created['id'], version='3.54')
