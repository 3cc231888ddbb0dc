"""JSON schemas of /servers/{server_id}/os-instance-actions queries."""

import copy

from tether.api import validation

# Before 2.58 Nova takes no parameters and ignores any.
ANY_QUERY = validation.IGNORED_QUERY

_time = {'type': 'string', 'maxLength': 64,
         'description': 'an ISO 8601 date and time'}

LIST_QUERY_V2_58 = {
    'type': 'object',
    'properties': {
        'limit': validation.non_negative_integer_string,
        'marker': {'type': 'string', 'maxLength': 255},
        'changes-since': _time,
    },
    'additionalProperties': False,
}

LIST_QUERY_V2_66 = copy.deepcopy(LIST_QUERY_V2_58)
LIST_QUERY_V2_66['properties']['changes-before'] = _time
