"""Helpers of the retype tests: types, attachments, the action."""

import uuid

LATEST = '3.71'


def admin(aio):
    return aio.http('admin', 'admin', version=LATEST)


def vtype(aio, **extra_specs):
    resp = admin(aio).post('/types', json={'volume_type': {
        'name': 'type-' + uuid.uuid4().hex[:8], 'extra_specs': extra_specs}})
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']


def retype(http, volume_id, new_type, policy=None):
    body = {'new_type': new_type}
    if policy is not None:
        body['migration_policy'] = policy
    return http.post('/volumes/%s/action' % volume_id,
                     json={'os-retype': body})


def shown(http, volume_id):
    resp = http.get('/volumes/%s' % volume_id)
    assert resp.status_code == 200, resp.text
    return resp.json()['volume']


def attach(http, volume_id):
    """An attachment of a server the compute API does not have, with a
    connector and completed: the volume is in-use."""
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume_id, 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'h1', 'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    resp = http.post('/attachments/%s/action' % attachment['id'],
                     json={'os-complete': None})
    assert resp.status_code == 204, resp.text
    return attachment['id']


def error(resp, status):
    assert resp.status_code == status, (resp.status_code, resp.text)
    [(_kind, body)] = resp.json().items()
    return body['message']
