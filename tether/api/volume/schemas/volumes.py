"""Schemas of /volumes: create, update, list queries."""

import copy

from tether.api import query
from tether.api import validation as v

_nullable_id = {'type': ['string', 'null'], 'maxLength': 255}

# Cinder clients send every create attribute they know, most of them null.
# Non-null values of the sources tether does not offer are refused by the
# handler with a message that names them.
_CREATE_VOLUME = {
    'type': 'object',
    'properties': {
        # Required unless the volume is made of a snapshot or a volume
        # (the handler says so).
        'size': {'oneOf': [v.positive_integer, {'type': 'null'}]},
        'name': v.string(nullable=True),
        'display_name': v.string(nullable=True),
        'description': v.string(nullable=True),
        'display_description': v.string(nullable=True),
        'volume_type': {'type': ['string', 'null'], 'maxLength': 255},
        'availability_zone': {'type': ['string', 'null'], 'maxLength': 255},
        'metadata': {'oneOf': [v.metadata, {'type': 'null'}]},
        'multiattach': {'oneOf': [v.boolean, {'type': 'null'}]},
        'snapshot_id': {'oneOf': [v.uuid, {'type': 'null'}]},
        'source_volid': {'oneOf': [v.uuid, {'type': 'null'}]},
        'imageRef': _nullable_id,
        'image_id': _nullable_id,
        'backup_id': _nullable_id,
        'consistencygroup_id': _nullable_id,
        'group_id': _nullable_id,
        'source_replica': _nullable_id,
    },
    'additionalProperties': False,
}

CREATE = {
    'type': 'object',
    'properties': {
        'volume': _CREATE_VOLUME,
        'OS-SCH-HNT:scheduler_hints': {'type': ['object', 'null']},
    },
    'required': ['volume'],
    'additionalProperties': False,
}

UPDATE = {
    'type': 'object',
    'properties': {
        'volume': {
            'type': 'object',
            'properties': {
                'name': v.string(nullable=True),
                'display_name': v.string(nullable=True),
                'description': v.string(nullable=True),
                'display_description': v.string(nullable=True),
                'metadata': v.metadata,
            },
            'additionalProperties': False,
        },
    },
    'required': ['volume'],
    'additionalProperties': False,
}

LIST_QUERY = {
    'type': 'object',
    'properties': {
        'limit': v.non_negative_integer_string,
        'offset': v.non_negative_integer_string,
        'marker': {'type': 'string', 'maxLength': 255},
        'sort': v.sort_param,
        'sort_key': {'type': 'string', 'maxLength': 255},
        'sort_dir': {'type': 'string', 'enum': ['asc', 'desc']},
        'all_tenants': v.boolean,
        'project_id': {'type': 'string', 'maxLength': 255},
        'user_id': {'type': 'string', 'maxLength': 255},
        'name': {'type': 'string', 'maxLength': 255},
        'status': {'type': 'string', 'maxLength': 255},
        'availability_zone': {'type': 'string', 'maxLength': 255},
        'bootable': v.boolean,
        'multiattach': v.boolean,
        'metadata': {'type': 'string',
                     'maxLength': query.MAX_FILTER_LENGTH},
    },
    'additionalProperties': False,
}

LIST_QUERY_V345 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V345['properties']['with_count'] = v.boolean

SHOW_QUERY = {'type': 'object', 'properties': {},
              'additionalProperties': False}

SUMMARY_QUERY = {
    'type': 'object',
    'properties': {'all_tenants': v.boolean},
    'additionalProperties': False,
}
