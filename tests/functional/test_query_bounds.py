"""Query strings a client can send to either API, hostile or broken:
each answered with a 400 that names the parameter, fast, and nothing of
the cloud changed (issue #15's classes: structured filters, dates at the
edge of the calendar, NULs, too many or too long parameters, patterns
that backtracked)."""

import json
import time
import urllib.parse

import pytest

from tests.functional import helpers


def _refused(http, path, name):
    started = time.perf_counter()
    resp = http.get(path)
    elapsed = time.perf_counter() - started
    assert resp.status_code == 400, (path[:200], resp.text[:500])
    message = resp.json()['badRequest']['message']
    assert name in message, message
    assert len(message) < 1000, message[:300]
    assert elapsed < 2, (path[:200], elapsed)
    return message


def _metadata(value):
    return '/volumes/detail?metadata=' + urllib.parse.quote(value)


@pytest.mark.parametrize('value', [
    '[' * 3000 + ']' * 3000,                  # nested past any parser
    '{"a": ' * 1500 + '"b"' + '}' * 1500,
    json.dumps({'k%d' % i: 'v' for i in range(1000)}),   # 1000 keys
    json.dumps({'k': 'v' * 300}),             # longer than the column
    '{"k": "\\ud800"}',                       # a lone surrogate (JSON)
    "{'k': '\\ud800'}",                       # and as a Python literal
    '{"k": "a\\u0000b"}',                     # a NUL
    "{'k': 1}",                               # not a string
    "__import__('os').system('true')",       # no code is run
    'x' * 5000,                               # longer than a filter
])
def test_a_metadata_filter_that_is_not_a_small_map_of_text(aio, value):
    http = aio.http()
    helpers.create_volume(http, metadata={'k': 'v'})
    _refused(http, _metadata(value), 'metadata')
    assert len(http.get('/volumes').json()['volumes']) == 1


def test_the_metadata_filter_as_clients_send_it(aio):
    http = aio.http()
    volume = helpers.create_volume(http, metadata={'k': 'v', 'n': '1'})
    for value in ('{"k": "v"}', "{'k': 'v', 'n': '1'}"):
        resp = http.get(_metadata(value))
        assert resp.status_code == 200, resp.text
        assert [v['id'] for v in resp.json()['volumes']] == [volume['id']]


@pytest.mark.parametrize('query,name', [
    ('name=a%00b', 'name'),
    ('&'.join('p%d=1' % i for i in range(65)), 'parameters'),
    ('name=' + 'x' * 9000, 'name'),
])
def test_query_strings_past_the_bounds(aio, query, name):
    http = aio.http()
    _refused(http, '/volumes?' + query, name)
    _refused(aio.compute_http(), '/servers?' + query, name)


@pytest.mark.parametrize('value', [
    '9999-12-31T23:59:59-01:00',     # past the last day once in UTC
    '0001-01-01T00:00:00+01:00',     # before the first
    '2026-13-40T00:00:00Z',
    'yesterday',
])
def test_changes_since_at_the_edge_of_the_calendar(aio, value):
    _refused(aio.compute_http(),
             '/servers/detail?changes-since=' + urllib.parse.quote(value),
             'changes-since')


def test_a_size_of_thirty_thousand_digits_is_refused_at_once(aio):
    http = aio.http()
    started = time.perf_counter()
    resp = http.post('/volumes', json={'volume': {'size': '1' * 30000 +
                                                  'x'}})
    assert resp.status_code == 400, resp.text[:300]
    assert time.perf_counter() - started < 2
    assert 'volume/size' in resp.json()['badRequest']['message']
    assert helpers.project_volumes(http.project) == []
