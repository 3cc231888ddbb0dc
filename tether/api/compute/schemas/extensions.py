"""Schemas of the compute API's /extensions: the queries (Nova ignores
their parameters), the list and one extension."""

from tether.api import response_types as rt
from tether.api import validation

ANY_QUERY = validation.IGNORED_QUERY


# Responses ------------------------------------------------------------------

_extension = rt.obj({
    'alias': {'type': 'string'},
    'description': {'type': 'string'},
    'links': {'type': 'array', 'maxItems': 0},
    'name': {'type': 'string'},
    'namespace': {'type': 'string'},
    'updated': rt.date_time,
})
LIST_RESPONSE = rt.wrapped('extensions', {'type': 'array',
                                          'items': _extension})
SHOW_RESPONSE = rt.wrapped('extension', _extension)
