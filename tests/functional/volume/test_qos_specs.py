"""QoS specs over HTTP (/qos-specs): create, read, set and unset keys,
associate with volume types, delete; what each refuses, with nothing
changed."""

from tests.functional.volume import qos_helpers as qh


def test_qos_specs_story(aio):
    http = qh.admin(aio)
    # Created with keys; the consumer is back-end unless given.
    resp = http.post('/qos-specs', json={'qos_specs': {
        'name': '  ' + (name := qh.name()) + ' ', 'read_iops_sec': '2000'}})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    qos = body['qos_specs']
    assert (qos['name'], qos['consumer'], qos['specs']) == (
        name, 'back-end', {'read_iops_sec': '2000'})
    assert [link['rel'] for link in body['links']] == ['self', 'bookmark']
    assert body['links'][0]['href'].endswith('/qos-specs/%s' % qos['id'])
    shown = http.get('/qos-specs/%s' % qos['id']).json()
    assert shown['qos_specs'] == qos

    # Listed, and filtered by name and consumer.
    listed = http.get('/qos-specs').json()['qos_specs']
    assert qos in listed
    assert http.get('/qos-specs?name=%s' % name).json()['qos_specs'] == [qos]
    assert qos not in http.get(
        '/qos-specs?consumer=front-end').json()['qos_specs']

    # Keys set (the consumer among them); the answer repeats them.
    resp = http.put('/qos-specs/%s' % qos['id'], json={'qos_specs': {
        'consumer': 'front-end', 'total_bytes_sec': '1048576'}})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'qos_specs': {'consumer': 'front-end',
                                         'total_bytes_sec': '1048576'}}
    shown = qh.show(http, qos['id'])
    assert (shown['consumer'], shown['specs']) == ('front-end', {
        'read_iops_sec': '2000', 'total_bytes_sec': '1048576'})

    # Keys unset.
    resp = http.put('/qos-specs/%s/delete_keys' % qos['id'],
                    json={'keys': ['read_iops_sec']})
    assert resp.status_code == 202, resp.text
    assert qh.show(http, qos['id'])['specs'] == {'total_bytes_sec':
                                                 '1048576'}

    # Associated with three types (by ID, and by name), each then shows
    # it; associating again changes nothing.
    types = [qh.vtype(http) for _ in range(3)]
    for i, vtype in enumerate(types):
        ref = vtype['name'] if i == 2 else vtype['id']
        assert qh.associate(http, qos['id'], ref).status_code == 202
    assert qh.associate(http, qos['id'], types[0]['id']).status_code == 202
    assert qh.associations(http, qos['id']) == sorted(t['id']
                                                      for t in types)
    assert qh.type_qos(http, types[0]['id']) == qos['id']
    resp = http.get('/qos-specs/%s/associations' % qos['id']).json()
    assert {'association_type': 'volume_type', 'id': types[1]['id'],
            'name': types[1]['name']} in resp['qos_associations']

    # In use: not deleted without force.
    resp = http.delete('/qos-specs/%s' % qos['id'])
    assert 'force' in qh.error(resp, 400)
    assert qh.show(http, qos['id'])['id'] == qos['id']

    # Disassociated from one, then from all.
    resp = http.get('/qos-specs/%s/disassociate?vol_type_id=%s'
                    % (qos['id'], types[0]['id']))
    assert resp.status_code == 202, resp.text
    assert qh.type_qos(http, types[0]['id']) is None
    assert qh.associations(http, qos['id']) == sorted(
        t['id'] for t in types[1:])
    resp = http.get('/qos-specs/%s/disassociate_all' % qos['id'])
    assert resp.status_code == 202, resp.text
    assert qh.associations(http, qos['id']) == []
    assert {qh.type_qos(http, t['id']) for t in types} == {None}

    # Deleted, then gone.
    assert http.delete('/qos-specs/%s' % qos['id']).status_code == 202
    assert http.get('/qos-specs/%s' % qos['id']).status_code == 404


def test_force_delete_takes_the_specs_from_their_types(aio):
    http = qh.admin(aio)
    qos = qh.create(http, consumer='both')
    vtype = qh.vtype(http)
    assert qh.associate(http, qos['id'], vtype['id']).status_code == 202
    resp = http.delete('/qos-specs/%s?force=true' % qos['id'])
    assert resp.status_code == 202, resp.text
    assert qh.type_qos(http, vtype['id']) is None
    assert http.get('/qos-specs/%s' % qos['id']).status_code == 404


def test_a_type_has_one_qos_specs(aio):
    http = qh.admin(aio)
    first, second = qh.create(http), qh.create(http)
    vtype = qh.vtype(http)
    assert qh.associate(http, first['id'], vtype['id']).status_code == 202
    resp = qh.associate(http, second['id'], vtype['id'])
    message = qh.error(resp, 400)
    assert first['id'] in message and vtype['id'] in message
    assert qh.type_qos(http, vtype['id']) == first['id']
    assert qh.associations(http, second['id']) == []
    # Disassociating specs the type does not have changes nothing.
    resp = http.get('/qos-specs/%s/disassociate?vol_type_id=%s'
                    % (second['id'], vtype['id']))
    assert resp.status_code == 202
    assert qh.type_qos(http, vtype['id']) == first['id']


def test_refusals_change_nothing(aio):
    http = qh.admin(aio)
    qos = qh.create(http, consumer='front-end', read_iops_sec='100')
    vtype = qh.vtype(http)
    before = qh.show(http, qos['id'])
    missing = '00000000-0000-4000-8000-000000000000'
    # A name taken: 409.
    resp = http.post('/qos-specs', json={'qos_specs': {'name': qos['name']}})
    assert qos['name'] in qh.error(resp, 409)
    for body in ({'qos_specs': {}},
                 {'qos_specs': {'name': '   '}},
                 {'qos_specs': {'name': 'x', 'consumer': 'nobody'}},
                 {'qos_specs': {'name': 'x', 'read_iops_sec': 100}},
                 {'qos_specs': {'name': 'x', 'bad key!': '1'}},
                 {'qos_specs': {'name': 'x' * 256}},
                 {'qos': {'name': 'x'}}):
        resp = http.post('/qos-specs', json=body)
        assert resp.status_code == 400, (body, resp.text)
    for body in ({'qos_specs': {}}, {'qos_specs': {'consumer': 'x'}},
                 {'qos_specs': {'total_iops_sec': None}}, {}):
        resp = http.put('/qos-specs/%s' % qos['id'], json=body)
        assert resp.status_code == 400, (body, resp.text)
    # delete_keys: all or nothing.
    resp = http.put('/qos-specs/%s/delete_keys' % qos['id'],
                    json={'keys': ['read_iops_sec', 'nope']})
    assert 'nope' in qh.error(resp, 404)
    for body in ({'keys': []}, {'keys': 'read_iops_sec'}, {}):
        resp = http.put('/qos-specs/%s/delete_keys' % qos['id'], json=body)
        assert resp.status_code == 400, (body, resp.text)
    # Associations without a type, or of unknown ones.
    resp = http.get('/qos-specs/%s/associate' % qos['id'])
    assert 'vol_type_id' in qh.error(resp, 400)
    resp = http.get('/qos-specs/%s/disassociate' % qos['id'])
    assert 'vol_type_id' in qh.error(resp, 400)
    assert missing in qh.error(qh.associate(http, qos['id'], missing), 404)
    resp = http.get('/qos-specs/%s/disassociate?vol_type_id=%s'
                    % (qos['id'], missing))
    assert missing in qh.error(resp, 404)
    resp = http.delete('/qos-specs/%s?force=maybe' % qos['id'])
    assert qh.error(resp, 400)
    assert qh.show(http, qos['id']) == before
    assert qh.associations(http, qos['id']) == []
    # Unknown specs: 404 on every path.
    for method, path in (
            ('GET', ''), ('DELETE', ''), ('GET', '/associations'),
            ('GET', '/associate?vol_type_id=%s' % vtype['id']),
            ('GET', '/disassociate?vol_type_id=%s' % vtype['id']),
            ('GET', '/disassociate_all')):
        resp = http.request(method, '/qos-specs/%s%s' % (missing, path))
        assert missing in qh.error(resp, 404), (method, path)
    resp = http.put('/qos-specs/%s' % missing,
                    json={'qos_specs': {'a': '1'}})
    assert qh.error(resp, 404)
    resp = http.put('/qos-specs/%s/delete_keys' % missing,
                    json={'keys': ['a']})
    assert qh.error(resp, 404)
    assert qh.type_qos(http, vtype['id']) is None


def test_only_administrators(aio):
    member = aio.http(version=qh.LATEST)
    qos = qh.create(qh.admin(aio))
    assert member.get('/qos-specs').status_code == 403
    assert member.get('/qos-specs/%s' % qos['id']).status_code == 403
    resp = member.post('/qos-specs', json={'qos_specs': {'name': 'x'}})
    assert resp.status_code == 403
    # A member sees no qos_specs_id in a type.
    assert 'qos_specs_id' not in member.get('/types/default').json()[
        'volume_type']
