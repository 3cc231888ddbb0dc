"""The parsed, bounded values of a query string (tether.api.query)."""

import datetime

import pytest

from tether.api import fault
from tether.api import query


def _message(fn, *args):
    with pytest.raises(fault.HTTPError) as info:
        fn(*args)
    assert info.value.status == 400
    return info.value.message


def test_iso_time_in_utc_and_absent():
    assert query.iso_time({'t': '2026-11-24T12:00:00+02:00'}, 't') == \
        datetime.datetime(2026, 11, 24, 10, 0)
    assert query.iso_time({}, 't') is None


@pytest.mark.parametrize('value', ['9999-12-31T23:59:59-01:00',
                                   '0001-01-01T00:00:00+01:00', 'soon', ''])
def test_iso_time_refuses_what_is_no_date_in_utc(value):
    assert 'changes-since' in _message(query.iso_time,
                                       {'changes-since': value},
                                       'changes-since')


def test_string_map_reads_json_and_the_literal_cinderclient_sends():
    assert query.string_map({'m': '{"k": "v"}'}, 'm') == {'k': 'v'}
    assert query.string_map({'m': "{'k': 'v'}"}, 'm') == {'k': 'v'}
    assert query.string_map({}, 'm') is None


def test_string_map_is_bounded_before_it_is_parsed(monkeypatch):
    parsed = []
    monkeypatch.setattr(query.json, 'loads',
                        lambda text: parsed.append(text) or {})
    _message(query.string_map, {'m': '{' * (query.MAX_FILTER_LENGTH + 1)},
             'm')
    assert parsed == []


def test_limits():
    query.limits({'a': '1', 'b': ['2', '3']})
    assert 'at most 64' in _message(
        query.limits, {'p%d' % i: '1' for i in range(65)})
    assert 'NUL' in _message(query.limits, {'name': 'a\x00b'})
    assert 'NUL' in _message(query.limits, {'name': ['ok', 'a\x00b']})
    assert 'more than 8192' in _message(query.limits, {'n': 'x' * 8193})
