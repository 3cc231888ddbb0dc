"""The volume API's samples of QoS specs (doc/api_samples/volume/),
replayed as an administrator: create, list, show, set and unset keys,
associate with a type, its associations, disassociate, delete."""

import uuid

from tests.functional.api_samples import samples

VERSION = '3.71'


def test_the_qos_specs_story(aio):
    http = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                    roles=['admin'], version=VERSION)
    name = 'limited-' + uuid.uuid4().hex[:6]
    type_name = 'silver-' + uuid.uuid4().hex[:6]
    resp = http.post('/types', json={'volume_type': {'name': type_name}})
    assert resp.status_code == 200, resp.text
    type_id = resp.json()['volume_type']['id']
    story = samples.Samples('volume', http, qos_name=name,
                            type_name=type_name, type_id=type_id)
    made = story.exchange('qos-create', 'POST', '/qos-specs', {
        'qos_specs': {'name': name, 'consumer': 'front-end',
                      'total_iops_sec': '500',
                      'read_bytes_sec_per_gb': '1048576'}},
        version=VERSION)['qos_specs']
    story.subs['qos_id'] = made['id']
    path = '/qos-specs/%s' % made['id']
    story.exchange('qos-list', 'GET', '/qos-specs?name=%s' % name,
                   version=VERSION)
    story.exchange('qos-show', 'GET', path, version=VERSION)
    story.exchange('qos-update', 'PUT', path, {
        'qos_specs': {'total_iops_sec': '1000', 'write_iops_sec': '200'}},
        version=VERSION)
    story.exchange('qos-unset', 'PUT', path + '/delete_keys',
                   {'keys': ['write_iops_sec']}, version=VERSION)
    story.exchange('qos-associate', 'GET',
                   path + '/associate?vol_type_id=%s' % type_id,
                   version=VERSION)
    story.exchange('qos-associations', 'GET', path + '/associations',
                   version=VERSION)
    story.exchange('qos-disassociate', 'GET',
                   path + '/disassociate?vol_type_id=%s' % type_id,
                   version=VERSION)
    story.exchange('qos-disassociate-all', 'GET', path + '/disassociate_all',
                   version=VERSION)
    story.exchange('qos-delete', 'DELETE', path + '?force=true',
                   version=VERSION)
    assert http.delete('/types/%s' % type_id).status_code == 202
