"""JSON schemas of /os-services: the list query, the 2.53 update."""

import copy

from tether.api import response_types as rt
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


# Responses ------------------------------------------------------------------

_service = rt.obj({
    'id': {'type': 'integer'},
    'binary': {'type': 'string'},
    'host': {'type': 'string'},
    'zone': {'type': 'string'},
    'status': {'type': 'string', 'enum': ['enabled', 'disabled']},
    'state': {'type': 'string', 'enum': ['up', 'down']},
    'updated_at': rt.date_time_or_null,
    'disabled_reason': rt.string_or_null,
})
_service_v2_11 = rt.extended(_service, {'forced_down': {'type': 'boolean'}},
                             ['forced_down'])
# From 2.53 a service is named by its UUID.
_service_v2_53 = rt.extended(_service_v2_11, {'id': rt.uuid})


def _list(service):
    return rt.wrapped('services', {'type': 'array', 'items': service})


LIST_RESPONSE = _list(_service)
LIST_RESPONSE_V2_11 = _list(_service_v2_11)
LIST_RESPONSE_V2_53 = _list(_service_v2_53)
UPDATE_RESPONSE_V2_53 = rt.wrapped('service', _service_v2_53)
