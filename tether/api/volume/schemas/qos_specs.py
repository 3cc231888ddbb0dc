"""Schemas of /qos-specs: create, set and unset keys, the queries of a
list, a delete and an association, and the answers."""

from tether.api import response_types as rt
from tether.api import validation as v
from tether.api.volume.schemas import listing

CONSUMERS = ['front-end', 'back-end', 'both']
_KEY = '^[a-zA-Z0-9-_:. /]{1,255}$'
_VALUE = {'type': 'string', 'maxLength': 255}
_CONSUMER = {'type': 'string', 'enum': CONSUMERS}
# Cinder's "name_skip_leading_trailing_spaces": not blank (its spaces
# around are dropped).
_NAME = {'type': 'string', 'maxLength': 255, 'pattern': r'\S'}

CREATE = {
    'type': 'object',
    'properties': {
        'qos_specs': {
            'type': 'object',
            'properties': {'name': _NAME, 'consumer': _CONSUMER},
            'patternProperties': {_KEY: _VALUE},
            'required': ['name'],
            'additionalProperties': False,
        },
    },
    'required': ['qos_specs'],
    'additionalProperties': False,
}

SET = {
    'type': 'object',
    'properties': {
        'qos_specs': {
            'type': 'object',
            'properties': {'consumer': _CONSUMER},
            'patternProperties': {_KEY: _VALUE},
            'minProperties': 1,
            'additionalProperties': False,
        },
    },
    'required': ['qos_specs'],
    'additionalProperties': False,
}

UNSET = {
    'type': 'object',
    'properties': {
        'keys': {
            'type': 'array',
            'items': {'type': 'string', 'minLength': 1, 'maxLength': 255},
            'uniqueItems': True,
            'minItems': 1,
        },
    },
    'required': ['keys'],
    'additionalProperties': False,
}

LIST_QUERY = listing.list_query(id=listing.STRING, name=listing.STRING,
                                consumer=_CONSUMER)
# all_tenants and project_id mean nothing here: QoS specs are global.
for _key in ('all_tenants', 'project_id'):
    del LIST_QUERY['properties'][_key]

DELETE_QUERY = {
    'type': 'object',
    'properties': {'force': v.boolean},
    'additionalProperties': False,
}

TYPE_QUERY = {
    'type': 'object',
    'properties': {'vol_type_id': {'type': 'string', 'minLength': 1,
                                   'maxLength': 255}},
    'required': ['vol_type_id'],
    'additionalProperties': False,
}

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}


# Responses ------------------------------------------------------------------

_qos = rt.obj({
    'id': rt.uuid,
    'name': {'type': 'string'},
    'consumer': {'type': 'string', 'enum': CONSUMERS},
    'specs': rt.string_map,
})

SHOW_RESPONSE = rt.obj({'qos_specs': _qos, 'links': rt.links})
LIST_RESPONSE = rt.obj({'qos_specs': {'type': 'array', 'items': _qos},
                        'qos_specs_links': rt.links},
                       required=['qos_specs'])
SET_RESPONSE = rt.wrapped('qos_specs', rt.string_map)
ASSOCIATIONS_RESPONSE = rt.wrapped('qos_associations', {
    'type': 'array',
    'items': rt.obj({'association_type': {'type': 'string',
                                          'enum': ['volume_type']},
                     'id': rt.uuid,
                     'name': {'type': 'string'}}),
})
