"""No pattern of any schema a handler uses backtracks badly: a pattern
runs over at most its schema's maxLength characters (validation skips it
beyond, and maxLength reports the string), and over that many it answers
at once, whatever the characters.

Shown to fail once on the pattern that took 10 s over 30,000 digits
(``test_the_guard_finds_a_pattern_that_backtracks``)."""

import re
import time

import pytest

from tether.api import actions
from tether.api.compute import routes as compute_routes
from tether.api.volume import routes as volume_routes

# A pattern with no maxLength beside it is tried over this many
# characters.
UNBOUNDED = 10000
# Slower than this over its longest input is a pattern that backtracks:
# here a linear one takes 0.2 ms over 10,000 characters, the quadratic
# one this guard was shown to catch 0.7 s. (Not a speed test: a wide
# margin either way, for a loaded machine.)
BUDGET = 0.1
# Runs of each, then a character that fails most patterns at the end.
FILLERS = '0 1a-._:/'
ENDINGS = ('', '\x00', '!', ' x')


def _handlers():
    for routes in (volume_routes, compute_routes):
        for _path, methods in routes.RESOURCES:
            for handler in methods.values():
                if isinstance(handler, actions.Dispatcher):
                    yield from handler.actions.values()
                else:
                    yield handler


def _schemas():
    for handler in _handlers():
        for attr in ('body_schemas', 'query_schemas'):
            for _lo, _hi, validator in getattr(handler, attr, ()):
                yield validator._validator.schema


def _patterns(schema):
    """(pattern, the longest string it may see) of every ``pattern`` and
    ``patternProperties`` key in ``schema``."""
    if isinstance(schema, dict):
        if isinstance(schema.get('pattern'), str):
            yield schema['pattern'], schema.get('maxLength', UNBOUNDED)
        for key in schema.get('patternProperties') or {}:
            yield key, UNBOUNDED
        for value in schema.values():
            yield from _patterns(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _patterns(value)


def _all_patterns():
    found = {}
    for schema in _schemas():
        for pattern, longest in _patterns(schema):
            found[pattern] = max(found.get(pattern, 0), longest)
    return sorted(found.items())


def _slowest(pattern, longest):
    compiled = re.compile(pattern)
    worst = 0.0
    for filler in FILLERS:
        for ending in ENDINGS:
            text = (filler * longest)[:max(0, longest - len(ending))] + \
                ending
            started = time.perf_counter()
            compiled.search(text)
            worst = max(worst, time.perf_counter() - started)
    return worst


def test_the_schemas_have_patterns():
    assert len(_all_patterns()) > 20


@pytest.mark.parametrize('pattern,longest', _all_patterns())
def test_a_pattern_answers_at_once_over_its_longest_input(pattern,
                                                          longest):
    assert _slowest(pattern, longest) < BUDGET, (
        '%r backtracks over %d characters' % (pattern, longest))


def test_the_guard_finds_a_pattern_that_backtracks():
    assert _slowest('^ *[0-9]*[1-9][0-9]* *$', UNBOUNDED) > BUDGET
