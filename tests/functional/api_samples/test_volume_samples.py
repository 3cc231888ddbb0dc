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


def test_the_volumes_story(aio, wait):
    http = aio.http(version='3.71')
    story = samples.Samples('volume', http)
    created = story.exchange('volume-create', 'POST', '/volumes', {
        'volume': {'size': 1, 'name': 'data', 'description': 'a volume',
                   'metadata': {'purpose': 'samples'}}},
        version='3.71')['volume']
    story.subs['volume_id'] = created['id']
    helpers.wait_until_status(http, created['id'], 'available', wait)
    story.exchange('volume-show', 'GET', '/volumes/%s' % created['id'],
                   version='3.71')
    story.exchange('volumes-list', 'GET', '/volumes', version='3.71')
    story.exchange('volume-update', 'PUT', '/volumes/%s' % created['id'],
                   {'volume': {'name': 'data-1'}}, version='3.71')
    story.exchange('volume-metadata-set', 'POST',
                   '/volumes/%s/metadata' % created['id'],
                   {'metadata': {'tier': 'gold'}}, version='3.71')
    story.exchange('volume-extend', 'POST',
                   '/volumes/%s/action' % created['id'],
                   {'os-extend': {'new_size': 2}}, version='3.71')
    helpers.wait_until_status(http, created['id'], 'available', wait)
    snapshot = story.exchange('snapshot-create', 'POST', '/snapshots', {
        'snapshot': {'volume_id': created['id'], 'name': 'before'}},
        version='3.71')['snapshot']
    story.subs['snapshot_id'] = snapshot['id']
    wait(lambda: http.get('/snapshots/%s' % snapshot['id']).json()[
        'snapshot']['status'] == 'available', what='the snapshot')
    story.exchange('snapshot-show', 'GET', '/snapshots/%s' % snapshot['id'],
                   version='3.71')
    story.exchange('snapshot-delete', 'DELETE',
                   '/snapshots/%s' % snapshot['id'], version='3.71')
    wait(lambda: http.get('/snapshots/%s' % snapshot['id']).status_code ==
         404, what='the snapshot gone')
    story.exchange('volume-delete', 'DELETE', '/volumes/%s' % created['id'],
                   version='3.71')
