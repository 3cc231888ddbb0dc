"""What /volumes refuses over HTTP: bad bodies, actions and queries,
another project in the URL, hostile input; each a 400 (or 404) that
names the problem, never a 500."""

import uuid

import pytest

from tests.functional import helpers


# Bad input ------------------------------------------------------------------

@pytest.mark.parametrize('body,field', [
    ({'volume': {}}, 'size'),
    ({'volume': {'size': 0}}, 'volume/size'),
    ({'volume': {'size': 'abc'}}, 'volume/size'),
    ({'volume': {'size': -1}}, 'volume/size'),
    ({'volume': {'size': 1.5}}, 'volume/size'),
    ({'volume': {'size': 1, 'colour': 'red'}}, 'colour'),
    ({'volume': {'size': 1, 'name': 'n' * 256}}, 'volume/name'),
    ({'volume': {'size': 1, 'metadata': {'k': 1}}}, 'volume/metadata'),
    ({'volume': {'size': 1, 'snapshot_id': 'not-a-uuid'}}, 'snapshot_id'),
    ({'volume': {'size': 1,
                 'backup_id': '4b3fc81c-7b0e-4a4e-9d4a-1f0a4bd3b6a1'}},
     'backup_id'),
    ({'volumes': {'size': 1}}, 'volume'),
    ([{'volume': {'size': 1}}], 'body'),
])
def test_create_with_a_bad_body_names_the_field(aio, body, field):
    http = aio.http()
    resp = http.post('/volumes', json=body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']
    assert helpers.project_volumes(http.project) == []


def test_create_with_a_body_that_is_not_json(aio):
    http = aio.http()
    for data in ('{"volume": {"size": 1}', 'size=1', ''):
        resp = http.post('/volumes', data=data,
                         headers={'Content-Type': 'application/json'})
        assert resp.status_code == 400, resp.text
        message = resp.json()['badRequest']['message']
        assert 'body' in message.lower(), message
    assert helpers.project_volumes(http.project) == []


def test_create_with_unknown_volume_type(aio):
    http = aio.http()
    resp = http.post('/volumes', json={'volume': {'size': 1,
                                                  'volume_type': 'nope'}})
    assert resp.status_code == 404
    assert 'nope' in resp.json()['itemNotFound']['message']
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}


@pytest.mark.parametrize('body,words', [
    ({'os-frobnicate': {}}, 'os-frobnicate'),
    ({'os-extend': {'new_size': 3}, 'os-reset_status': {'status': 'error'}},
     'exactly one key'),
    ({}, 'exactly one key'),
    (['os-extend'], 'exactly one key'),
    ({'os-extend': {}}, 'new_size'),
    ({'os-extend': {'new_size': 'big'}}, 'os-extend/new_size'),
    ({'os-extend': {'new_size': 0}}, 'os-extend/new_size'),
    ({'os-extend': {'new_size': 3, 'force': True}}, 'force'),
    ({'os-extend': None}, 'os-extend'),
])
def test_bad_actions_name_the_problem(aio, wait, body, words):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    resp = http.post('/volumes/%s/action' % volume['id'], json=body)
    assert resp.status_code == 400, resp.text
    assert words in resp.json()['badRequest']['message']
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert (shown['status'], shown['size']) == ('available', 1)


def test_update_with_a_bad_body(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http)
    vpath = '/volumes/%s' % volume['id']
    resp = http.put(vpath, json={'volume': {'size': 5}})
    assert resp.status_code == 400
    assert 'size' in resp.json()['badRequest']['message']
    resp = http.put(vpath, json={'volume': {'name': 7}})
    assert resp.status_code == 400
    assert 'volume/name' in resp.json()['badRequest']['message']


def test_bad_list_queries(aio):
    http = aio.http()
    for query, words in (('limit=abc', 'limit'),
                         ('sort=bogus:asc', 'bogus'),
                         ('sort=name:sideways', 'sort'),
                         ('sort_key=bogus', 'bogus'),
                         ('sort_dir=up', 'sort_dir'),
                         ('marker=%s' % uuid.uuid4(), 'marker'),
                         ('colour=red', 'colour'),
                         ('with_count=true', 'with_count')):
        resp = http.get('/volumes?' + query)
        assert resp.status_code == 400, (query, resp.text)
        assert words in resp.json()['badRequest']['message'], query


def test_project_in_the_url_must_be_the_callers(aio, wait):
    http = aio.http()
    mine = helpers.create_volume(http)
    other = aio.http()
    theirs = helpers.create_volume(other)
    url = aio.volume_url + '/%s/volumes' % other.project
    resp = http.session.get(url)
    assert resp.status_code == 400, resp.text
    assert other.project in resp.json()['badRequest']['message']
    resp = http.session.post(url, json={'volume': {'size': 1}})
    assert resp.status_code == 400
    resp = http.session.get(url + '/%s' % theirs['id'])
    assert resp.status_code == 400
    assert helpers.usage(other.project)['volumes'] == (1, 0)
    assert helpers.usage(http.project)['volumes'] == (1, 0)
    # Without a project in the URL (3.67 style) the token's project counts.
    resp = http.session.get(aio.volume_url + '/volumes')
    assert [v['id'] for v in resp.json()['volumes']] == [mine['id']]


@pytest.mark.parametrize('method,path,body,words', [
    # Bytes that are not UTF-8, in the path and in the query string.
    ('GET', '/volumes/%E9', None, 'UTF-8'),
    ('GET', '/volumes?name=%E9', None, 'UTF-8'),
    ('GET', '/volumes?%E9=1', None, 'UTF-8'),
    # Digits beyond the database's integers, as a string and a number.
    ('POST', '/volumes', '{"volume": {"size": "%s"}}' % ('9' * 40),
     'volume/size'),
    ('POST', '/volumes', '{"volume": {"size": "2147483648"}}',
     'volume/size'),
    ('POST', '/volumes', '{"volume": {"size": %s}}' % ('9' * 40),
     'volume/size'),
    # JSON that decodes but cannot be stored, or nests without end.
    ('POST', '/volumes',
     '{"volume": {"size": 1, "name": "\\ud800"}}', 'body'),
    ('POST', '/volumes', '[' * 100000, 'body'),
], ids=['path-latin1', 'query-value-latin1', 'query-key-latin1',
        'size-40-digit-string', 'size-string-over-int32',
        'size-40-digit-number', 'lone-surrogate', 'deep-nesting'])
def test_hostile_input_is_a_400_not_a_500(aio, method, path, body, words):
    http = aio.http()
    resp = http.request(method, path, data=body,
                        headers={'Content-Type': 'application/json'})
    assert resp.status_code == 400, resp.text
    assert words in resp.json()['badRequest']['message']
    assert helpers.project_volumes(http.project) == []


def test_hostile_input_on_actions_and_metadata(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    vpath = '/volumes/%s' % volume['id']
    for method, path, body in (
            ('GET', vpath + '/metadata/%E9', None),
            ('POST', vpath + '/action',
             '{"os-extend": {"new_size": "%s"}}' % ('9' * 40)),
            ('POST', vpath + '/metadata',
             '{"metadata": {"k": "\\udfff"}}')):
        resp = http.request(method, path, data=body,
                            headers={'Content-Type': 'application/json'})
        assert resp.status_code == 400, (path, resp.text)
    shown = http.get(vpath).json()['volume']
    assert (shown['status'], shown['size'], shown['metadata']) == (
        'available', 1, {})
