"""Every operation of both APIs declares what it answers at each
microversion it serves (tether.api.responses), once: the OpenAPI
description publishes these declarations, and the functional tests check
every answer against them.

The operations not yet declared are listed in responses_todo.txt; the
list may only shrink (an operation that declares its responses must
leave it, and an operation that does not must be on it).
"""

import pathlib

from tether.api.compute import description as compute_description
from tether.api import microversion
from tether.api import operations
from tether.api import responses
from tether.api.volume import description as volume_description

TODO = pathlib.Path(__file__).with_name('responses_todo.txt')


def _todo():
    return {line.strip() for line in TODO.read_text().splitlines()
            if line.strip() and not line.startswith('#')}


def _all():
    return [('volume', op) for op in volume_description.operations()] + \
        [('compute', op) for op in compute_description.operations()]


def problems(ops, todo):
    found = []
    names = set()
    for api, op in ops:
        name = '%s %s' % (api, op.name)
        names.add(name)
        declared = responses.declarations(op.handler)
        if not declared:
            if name not in todo:
                found.append('%s declares no response' % name)
            continue
        if name in todo:
            found.append('%s declares its responses: take it off %s'
                         % (name, TODO.name))
        for version in op.versions():
            count = sum(1 for lo, hi, _d in declared
                        if (lo is None or version >= lo) and
                        (hi is None or version <= hi))
            if count != 1:
                found.append('%s declares %d responses at %s'
                             % (name, count, version))
    found.extend('%s is on %s but is no operation' % (name, TODO.name)
                 for name in sorted(todo - names))
    return found


def test_every_operation_declares_one_response_per_microversion():
    assert problems(_all(), _todo()) == []


def _handler(*windows):
    def handler(req):
        pass
    for lo, hi in windows:
        handler = responses.declare({'type': 'object'}, 200, lo,
                                    hi)(handler)
    return handler


def test_the_guard_catches_gaps_overlaps_and_a_stale_list():
    service = microversion.Service('volume', '3.0', '3.5')
    complete = operations.Operation(service, '/a', 'GET',
                                    _handler(('3.0', '3.2'), ('3.3', None)))
    gap = operations.Operation(service, '/b', 'GET',
                               _handler(('3.0', '3.2'), ('3.4', None)))
    overlap = operations.Operation(service, '/c', 'GET',
                                   _handler(('3.0', '3.3'), ('3.3', None)))
    bare = operations.Operation(service, '/d', 'GET', lambda req: None)
    ops = [('volume', op) for op in (complete, gap, overlap, bare)]
    assert problems(ops, {'volume GET /d'}) == [
        'volume GET /b declares 0 responses at 3.3',
        'volume GET /c declares 2 responses at 3.3']
    assert problems(ops, {'volume GET /a', 'volume GET /z'}) == [
        'volume GET /a declares its responses: take it off '
        'responses_todo.txt',
        'volume GET /b declares 0 responses at 3.3',
        'volume GET /c declares 2 responses at 3.3',
        'volume GET /d declares no response',
        'volume GET /z is on responses_todo.txt but is no operation']
