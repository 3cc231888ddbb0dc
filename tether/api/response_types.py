"""Parameter types of response schemas, shared by both APIs (the request
side's are in tether.api.validation).

A response schema states the shape clients rely on, as upstream's own
test suite checks it (Tempest's response schemas): the keys that are
always there are required, objects that Cinder or Nova may grow keep
``additionalProperties`` open where upstream's are, and closed where a
key more would be a change a client sees.
"""

from tether.api import microversion
from tether.api import responses

# A date and time as both APIs print them: ISO 8601, with or without
# fractions and a zone ("2026-11-25T01:53:17.000000", "...Z", "+00:00").
date_time = {
    'type': 'string',
    'pattern': r'^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?'
               r'(Z|[+-]\d{2}:\d{2})?$',
}
date_time_or_null = dict(date_time, type=['string', 'null'])

uuid = {
    'type': 'string',
    'pattern': '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-'
               '[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
}
uuid_or_null = dict(uuid, type=['string', 'null'])

string_or_null = {'type': ['string', 'null']}

# A map of text to text (metadata, extra specs).
string_map = {'type': 'object', 'additionalProperties': {'type': 'string'}}

# The links of a resource or a page: rel "self", "bookmark" or "next".
links = {
    'type': 'array',
    'items': {
        'type': 'object',
        'properties': {
            'href': {'type': 'string'},
            'rel': {'type': 'string'},
            'type': {'type': 'string'},
        },
        'required': ['href', 'rel'],
        'additionalProperties': False,
    },
}


def obj(properties, required=None, additional=False):
    """An object of ``properties``, all of them required unless
    ``required`` names some."""
    return {
        'type': 'object',
        'properties': properties,
        'required': list(properties) if required is None else list(required),
        'additionalProperties': additional,
    }


def wrapped(name, inner):
    """``{name: inner}`` and nothing else: the envelope of most answers."""
    return obj({name: inner})


def extended(schema, properties, required=()):
    """``schema`` (an object) with more properties, some of them required
    (a view that grows at a microversion)."""
    out = dict(schema)
    out['properties'] = dict(schema['properties'], **properties)
    out['required'] = list(schema.get('required', [])) + list(required)
    return out


def by_version(first, *changes):
    """The windows of a response that changes at some microversions:
    ``first`` until the first change, then each ``(version, schema)`` of
    ``changes`` (lowest version first) from its version until the next.
    Returns ``[(schema, min_version, max_version)]`` (None: open), to
    declare with ``declare_each``."""
    windows = []
    schema, lo = first, None
    for version, changed in changes:
        windows.append((schema, lo, microversion.before(version)))
        schema, lo = changed, version
    windows.append((schema, lo, None))
    return windows


def declare_each(windows, status=200):
    """Declare (tether.api.responses.declare) every window of
    ``by_version`` with ``status``: one decorator for all of them."""
    def decorator(fn):
        for schema, lo, hi in windows:
            fn = responses.declare(schema, status, lo, hi)(fn)
        return fn
    return decorator


def growing(item, wrap, item_steps=(), body_steps=()):
    """``by_version`` of a body ``wrap(item)`` (an object, or a list of
    them) whose item gains properties at some microversions
    (``item_steps``) and whose body does at others (``body_steps``),
    each step ``(version, properties, required)``."""
    changes = sorted(
        [(version, True, p, r) for version, p, r in item_steps] +
        [(version, False, p, r) for version, p, r in body_steps],
        key=lambda change: microversion.parse(change[0]))
    body_changes = []

    def body():
        out = wrap(item)
        for properties, required in body_changes:
            out = extended(out, properties, required)
        return out

    first = body()
    steps = []
    for version, of_item, properties, required in changes:
        if of_item:
            item = extended(item, properties, required)
        else:
            body_changes.append((properties, required))
        if steps and steps[-1][0] == version:
            steps.pop()
        steps.append((version, body()))
    return by_version(first, *steps)
