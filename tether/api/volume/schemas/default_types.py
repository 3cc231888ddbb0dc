"""Schemas of projects' default volume types (/default-types, 3.62): the
set's body, the queries, the answers."""

from tether.api import response_types as rt

SET = {
    'type': 'object',
    'properties': {
        'default_type': {
            'type': 'object',
            'properties': {
                # A type's name or ID.
                'volume_type': {'type': 'string', 'minLength': 1,
                                'maxLength': 255},
            },
            'required': ['volume_type'],
            'additionalProperties': False,
        },
    },
    'required': ['default_type'],
    'additionalProperties': False,
}

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}


# Responses ------------------------------------------------------------------

_default_type = rt.obj({'project_id': {'type': 'string'},
                        'volume_type_id': rt.uuid})

SHOW_RESPONSE = rt.wrapped('default_type', _default_type)
LIST_RESPONSE = rt.wrapped('default_types', {'type': 'array',
                                             'items': _default_type})
