"""Schemas of /extensions: its query (none), and the list."""

from tether.api import response_types as rt

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}


# Responses ------------------------------------------------------------------

LIST_RESPONSE = rt.wrapped('extensions', {'type': 'array', 'items': rt.obj({
    'name': {'type': 'string'},
    'alias': {'type': 'string'},
    'description': {'type': 'string'},
    'updated': rt.date_time,
    'links': {'type': 'array', 'maxItems': 0},
}, required=['name', 'alias', 'description', 'updated', 'links'])})
