"""User messages (/messages, 3.3): a volume no backend can hold (its
type's extra specs match no backend's capabilities) goes to error with a
message its project lists, shows and deletes; the messages of other
projects stay theirs; expired ones go."""

import time
import uuid

from oslo_config import cfg

from tests.functional import helpers
from tests.functional.volume import message_helpers as mh
from tether import context as t_context
from tether.volume import messages

CONF = cfg.CONF
NO_BACKEND = 'VOLUME_VOLUME_001_003'
NO_BACKEND_TEXT = ('schedule allocate volume:Could not find any available '
                   'weighted backend.')


def _type(aio, **extra_specs):
    admin = aio.http('admin', 'admin', version='3.71')
    resp = admin.post('/types', json={'volume_type': {
        'name': 'type-' + uuid.uuid4().hex[:8], 'extra_specs': extra_specs}})
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']


def _unplaceable(aio, http):
    """A volume of a type no backend's capabilities satisfy."""
    vtype = _type(aio, storage_protocol='bogus-protocol',
                  vendor_name='bogus-vendor')
    resp = http.post('/volumes', json={'volume': {
        'size': 1, 'volume_type': vtype['id']}})
    assert resp.status_code == 202, resp.text
    return resp.json()['volume']


def test_a_volume_no_backend_matches_is_error_with_a_message(aio, wait):
    http = aio.http(version='3.71')
    volume = _unplaceable(aio, http)
    body = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert body['status'] == 'error' and body['consumes_quota'] is False
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}
    listed = http.get('/messages').json()['messages']
    [message] = [m for m in listed if m['resource_uuid'] == volume['id']]
    assert (message['event_id'], message['user_message'],
            message['message_level'], message['resource_type']) == (
        NO_BACKEND, NO_BACKEND_TEXT, 'ERROR', 'VOLUME')
    assert message['request_id'].startswith('req-')
    assert message['guaranteed_until'] > message['created_at']
    assert message['links'][0]['href'].endswith('/messages/' + message['id'])
    shown = http.get('/messages/%s' % message['id']).json()['message']
    assert shown == message

    # Another project sees nothing of it; a reader may not delete it.
    other = aio.http(version='3.71')
    assert other.get('/messages').json()['messages'] == []
    assert other.get('/messages/%s' % message['id']).status_code == 404
    assert other.delete('/messages/%s' % message['id']).status_code == 404
    reader = aio.http(http.user, http.project, roles=['reader'],
                      version='3.71')
    assert reader.get('/messages/%s' % message['id']).status_code == 200
    assert reader.delete('/messages/%s' % message['id']).status_code == 403
    # The administrator's list has every project's.
    admin = aio.http('admin', 'admin', version='3.71')
    assert message['id'] in [m['id'] for m in
                             admin.get('/messages').json()['messages']]

    resp = http.delete('/messages/%s' % message['id'])
    assert resp.status_code == 204, resp.text
    assert http.get('/messages/%s' % message['id']).status_code == 404
    assert http.delete('/messages/%s' % message['id']).status_code == 404
    # The volume in error is deleted as any other.
    assert http.delete('/volumes/%s' % volume['id']).status_code == 202
    wait(lambda: helpers.db_volume(volume['id']) is None, what='delete')


def test_a_type_the_backend_satisfies_is_placed(aio, wait):
    http = aio.http(version='3.71')
    for specs in ({'storage_protocol': 'nfs', 'vendor_name': 'tether'},
                  {'capabilities:storage_protocol': '<in> nf',
                   'multiattach': '<is> True',
                   'thin_provisioning_support': '<is> True',
                   'free_capacity_gb': '>= 0.001',
                   'RESKEY:anything': 'x'},
                  {'storage_protocol': '<or> iSCSI <or> nfs'}):
        vtype = _type(aio, **specs)
        volume = helpers.create_volume(http, volume_type=vtype['id'],
                                       wait_for=wait)
        assert mh.of(http, volume['id']) == []
    for specs in ({'storage_protocol': '<or> iSCSI <or> FC'},
                  {'capabilities:no_such_thing': 'x'},
                  {'free_capacity_gb': '< 1'},
                  {'thin_provisioning_support': '<is> False'}):
        vtype = _type(aio, **specs)
        resp = http.post('/volumes', json={'volume': {
            'size': 1, 'volume_type': vtype['id']}})
        assert resp.status_code == 202, resp.text
        volume = resp.json()['volume']
        assert volume['status'] == 'error', specs
        assert mh.of(http, volume['id']) == [(NO_BACKEND, NO_BACKEND_TEXT)]


def test_versions_paging_and_filters(aio):
    http = aio.http(version='3.5')
    made = [_unplaceable(aio, http)['id'] for _ in range(3)]
    # Not served before 3.3; no query before 3.5.
    for version, path, status in (('3.2', '/messages', 404),
                                  ('3.3', '/messages', 200),
                                  ('3.3', '/messages?limit=1', 400),
                                  ('3.5', '/messages?limit=x', 400),
                                  ('3.5', '/messages?sort=nope', 400),
                                  ('3.5', '/messages?marker=%s'
                                   % uuid.uuid4(), 404),
                                  ('3.5', '/messages?color=red', 400)):
        resp = http.get(path, headers={'OpenStack-API-Version':
                                       'volume ' + version})
        assert resp.status_code == status, (version, path, resp.text)
    # Newest first, two a page.
    first = http.get('/messages?limit=2').json()
    assert [m['resource_uuid'] for m in first['messages']] == made[:0:-1]
    next_href = first['messages_links'][0]['href']
    marker = first['messages'][-1]['id']
    assert 'marker=%s' % marker in next_href
    rest = http.get('/messages?limit=2&marker=%s' % marker).json()
    assert [m['resource_uuid'] for m in rest['messages']] == made[:1]
    assert http.get('/messages?event_id=%s' % NO_BACKEND).json()[
        'messages'][0]['event_id'] == NO_BACKEND
    assert http.get('/messages?event_id=nope').json()['messages'] == []


def test_expired_messages_are_deleted(aio):
    http = aio.http(version='3.5')
    before = CONF.message_ttl
    CONF.set_override('message_ttl', 1)
    try:
        volume = _unplaceable(aio, http)
    finally:
        CONF.set_override('message_ttl', before)
    kept = _unplaceable(aio, http)
    assert len(mh.of(http, volume['id'])) == 1
    time.sleep(1.2)
    # What the volume service's periodic sweep runs.
    assert messages.reap(t_context.get_admin_context()) >= 1
    assert mh.of(http, volume['id']) == []
    assert len(mh.of(http, kept['id'])) == 1
