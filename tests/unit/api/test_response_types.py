"""The windows of a response that grows at several microversions
(tether.api.response_types.by_version, growing, declare_each)."""

from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses

ITEM = rt.obj({'id': {'type': 'string'}})


def _wrap(item):
    return rt.obj({'items': {'type': 'array', 'items': item}})


def _keys(schema):
    return sorted(schema['properties']['items']['items']['properties'])


def test_by_version_ends_each_window_before_the_next():
    assert rt.by_version('a', ('3.5', 'b'), ('3.10', 'c')) == [
        ('a', None, '3.4'), ('b', '3.5', '3.9'), ('c', '3.10', None)]
    assert rt.by_version('a') == [('a', None, None)]


def test_growing_applies_item_and_body_steps_in_version_order():
    windows = rt.growing(
        ITEM, _wrap,
        item_steps=[('3.13', {'g': {'type': 'null'}}, ['g']),
                    ('3.48', {'s': {'type': 'boolean'}}, [])],
        body_steps=[('3.45', {'count': {'type': 'integer'}}, []),
                    ('3.13', {'links': {'type': 'array'}}, [])])
    assert [(lo, hi) for _s, lo, hi in windows] == [
        (None, '3.12'), ('3.13', '3.44'), ('3.45', '3.47'), ('3.48', None)]
    assert [_keys(s) for s, _lo, _hi in windows] == [
        ['id'], ['g', 'id'], ['g', 'id'], ['g', 'id', 's']]
    assert [sorted(s['properties']) for s, _lo, _hi in windows] == [
        ['items'], ['items', 'links'], ['count', 'items', 'links'],
        ['count', 'items', 'links']]
    # What a step requires, and only that, becomes required.
    assert windows[-1][0]['properties']['items']['items']['required'] == \
        ['id', 'g']
    # The schemas before a step are left as they were.
    assert _keys(rt.growing(ITEM, _wrap)[0][0]) == ['id']


def test_declare_each_declares_every_window():
    @rt.declare_each(rt.by_version({'type': 'object'},
                                   ('3.5', {'type': 'array'})), 202)
    def handler(req):
        pass

    windows = sorted((str(lo), str(hi), d.statuses)
                     for lo, hi, d in responses.declarations(handler))
    assert windows == [('3.5', 'None', (202,)), ('None', '3.4', (202,))]
    assert microversion.parse('3.4') in [
        hi for _lo, hi, _d in responses.declarations(handler)]
