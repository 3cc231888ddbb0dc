"""Helpers of the QoS specs tests: an administrator's HTTP session,
specs and types made for one test."""

import uuid

LATEST = '3.71'


def name(prefix='qos'):
    return '%s-%s' % (prefix, uuid.uuid4().hex[:8])


def admin(aio):
    return aio.http('admin', 'admin', version=LATEST)


def create(http, **specs):
    body = dict({'name': name()}, **specs)
    resp = http.post('/qos-specs', json={'qos_specs': body})
    assert resp.status_code == 200, resp.text
    return resp.json()['qos_specs']


def show(http, qos_id):
    resp = http.get('/qos-specs/%s' % qos_id)
    assert resp.status_code == 200, resp.text
    return resp.json()['qos_specs']


def vtype(http, **extra_specs):
    resp = http.post('/types', json={'volume_type': {
        'name': name('type'), 'extra_specs': extra_specs}})
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']


def associate(http, qos_id, type_id):
    return http.get('/qos-specs/%s/associate?vol_type_id=%s'
                    % (qos_id, type_id))


def associations(http, qos_id):
    resp = http.get('/qos-specs/%s/associations' % qos_id)
    assert resp.status_code == 200, resp.text
    return sorted(a['id'] for a in resp.json()['qos_associations'])


def type_qos(http, type_id):
    resp = http.get('/types/%s' % type_id)
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']['qos_specs_id']


def error(resp, status):
    assert resp.status_code == status, (resp.status_code, resp.text)
    [(_kind, body)] = resp.json().items()
    return body['message']
