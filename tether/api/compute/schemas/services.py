"""JSON schemas of /os-services: the list query, the 2.53 update."""

import copy

from tether.api import validation

_NAME = {'type': 'string', 'maxLength': 255}

# Nova ignores query parameters it does not know, and from 2.75 rejects
# them.
LIST_QUERY = {
    'type': 'object',
    'properties': {'host': _NAME, 'binary': _NAME},
    'additionalProperties': True,
}
LIST_QUERY_V2_75 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V2_75['additionalProperties'] = False

DELETE_QUERY = validation.IGNORED_QUERY

UPDATE_V2_53 = {
    'type': 'object',
    'properties': {
        'status': {'type': 'string', 'enum': ['enabled', 'disabled'],
                   'description': '"enabled" or "disabled"'},
        'disabled_reason': {'type': 'string', 'minLength': 1,
                            'maxLength': 255},
        'forced_down': validation.boolean,
    },
    'additionalProperties': False,
}
