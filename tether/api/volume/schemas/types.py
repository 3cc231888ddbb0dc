"""Schemas of /types: create, update, list and show queries."""

from tether.api import response_types as rt
from tether.api import validation as v

# A name needs one character that is not white space.
_NAME = {'type': 'string', 'minLength': 1, 'maxLength': 255,
         'pattern': r'\S'}
_DESCRIPTION = v.string(nullable=True)

EXTRA_SPECS = {
    'type': 'object',
    'patternProperties': {
        '^[a-zA-Z0-9-_:. /]{1,255}$': {'type': 'string', 'maxLength': 255},
    },
    'additionalProperties': False,
}

CREATE = {
    'type': 'object',
    'properties': {
        'volume_type': {
            'type': 'object',
            'properties': {
                'name': _NAME,
                'description': _DESCRIPTION,
                'os-volume-type-access:is_public': v.boolean,
                'extra_specs': {'oneOf': [EXTRA_SPECS, {'type': 'null'}]},
            },
            'required': ['name'],
            'additionalProperties': False,
        },
    },
    'required': ['volume_type'],
    'additionalProperties': False,
}

# Cinder's update takes is_public; openstacksdk sends the attribute under
# its response name, os-volume-type-access:is_public: both are accepted.
UPDATE = {
    'type': 'object',
    'properties': {
        'volume_type': {
            'type': 'object',
            'properties': {
                'name': _NAME,
                'description': _DESCRIPTION,
                'is_public': v.boolean,
                'os-volume-type-access:is_public': v.boolean,
            },
            'additionalProperties': False,
        },
    },
    'required': ['volume_type'],
    'additionalProperties': False,
}

LIST_QUERY = {
    'type': 'object',
    'properties': {
        # "none" lists public and private types (admins).
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


# Responses ------------------------------------------------------------------

# What an update answers (Cinder's types_manage view): extra_specs for
# whoever may see them (by default administrators all, others those
# users may see).
_type = rt.obj({
    'id': rt.uuid,
    'name': {'type': 'string'},
    'description': rt.string_or_null,
    'is_public': {'type': 'boolean'},
    'extra_specs': rt.string_map,
}, required=['id', 'name', 'description', 'is_public'])
# The type access extension's is_public: in Cinder for whoever its
# policy allows (by default project members and administrators, who
# alone create types); tether shows it to every reader.
_access = {'os-volume-type-access:is_public': {'type': 'boolean'}}
_type_created = rt.extended(_type, _access, list(_access))
# A show and a list add the QoS specs (administrators).
_type_shown = rt.extended(_type, dict(_access,
                                      qos_specs_id=rt.uuid_or_null))

SHOW_RESPONSE = rt.wrapped('volume_type', _type_shown)
CREATE_RESPONSE = rt.wrapped('volume_type', _type_created)
UPDATE_RESPONSE = rt.wrapped('volume_type', _type)
LIST_RESPONSE = rt.obj({
    'volume_types': {'type': 'array', 'items': _type_shown},
    'volume_type_links': rt.links,
}, required=['volume_types'])
