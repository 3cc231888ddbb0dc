"""Schemas of /group_types and their group specs."""

from tether.api import response_types as rt
from tether.api import validation as v

# A name needs one character that is not white space.
_NAME = {'type': 'string', 'minLength': 1, 'maxLength': 255,
         'pattern': r'\S'}
_DESCRIPTION = v.string(nullable=True)

# Cinder's keys of group specs: no spaces; null values allowed (they
# are stored as given).
_SPEC_KEY = '^[a-zA-Z0-9-_:.]{1,255}$'
_SPEC_VALUE = {'type': ['string', 'null'], 'maxLength': 255}
GROUP_SPECS = {
    'type': 'object',
    'patternProperties': {_SPEC_KEY: _SPEC_VALUE},
    'additionalProperties': False,
}

CREATE = {
    'type': 'object',
    'properties': {
        'group_type': {
            'type': 'object',
            'properties': {
                'name': _NAME,
                'description': _DESCRIPTION,
                'is_public': v.boolean,
                'group_specs': {'oneOf': [GROUP_SPECS, {'type': 'null'}]},
            },
            'required': ['name'],
            'additionalProperties': False,
        },
    },
    'required': ['group_type'],
    'additionalProperties': False,
}

UPDATE = {
    'type': 'object',
    'properties': {
        'group_type': {
            'type': 'object',
            'properties': {
                'name': v.string(nullable=True),
                'description': _DESCRIPTION,
                'is_public': v.boolean,
            },
            'additionalProperties': False,
        },
    },
    'required': ['group_type'],
    'additionalProperties': False,
}

LIST_QUERY = {
    'type': 'object',
    'properties': {
        # "none" lists public and private types (administrators).
        'is_public': {'anyOf': [v.boolean,
                                {'type': 'string',
                                 'enum': ['none', 'None', 'NONE']}]},
        'limit': v.non_negative_integer_string,
        'offset': v.non_negative_integer_string,
        'marker': {'type': 'string', 'maxLength': 255},
        'sort': v.sort_param,
        'sort_key': {'type': 'string', 'maxLength': 255},
        'sort_dir': {'type': 'string', 'enum': ['asc', 'desc']},
    },
    'additionalProperties': False,
}

NO_QUERY = {'type': 'object', 'properties': {},
            'additionalProperties': False}

SPECS_CREATE = {
    'type': 'object',
    'properties': {'group_specs': GROUP_SPECS},
    'required': ['group_specs'],
    'additionalProperties': False,
}

SPEC_UPDATE = dict(GROUP_SPECS, minProperties=1, maxProperties=1)


# Responses ------------------------------------------------------------------

_specs = {'type': 'object', 'additionalProperties': rt.string_or_null}
_type = rt.obj({
    'id': rt.uuid,
    'name': {'type': 'string'},
    'description': rt.string_or_null,
    'is_public': {'type': 'boolean'},
    # For whoever group:access_group_types_specs allows (administrators).
    'group_specs': _specs,
}, required=['id', 'name', 'description', 'is_public'])

SHOW_RESPONSE = rt.wrapped('group_type', _type)
LIST_RESPONSE = rt.obj({
    'group_types': {'type': 'array', 'items': _type},
    'group_type_links': rt.links,
}, required=['group_types'])
SPECS_RESPONSE = rt.wrapped('group_specs', _specs)
SPEC_RESPONSE = dict(_specs, minProperties=1, maxProperties=1)
