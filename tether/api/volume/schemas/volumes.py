"""Schemas of /volumes: create, update, list queries."""

import copy

from tether.api import validation as v
from tether.api.volume.schemas import listing

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

LIST_QUERY = listing.list_query(
    user_id=listing.STRING, name=listing.STRING, status=listing.STRING,
    availability_zone=listing.STRING, bootable=v.boolean,
    multiattach=v.boolean, metadata=listing.METADATA_FILTER)

LIST_QUERY_V345 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V345['properties']['with_count'] = v.boolean

SHOW_QUERY = {'type': 'object', 'properties': {},
              'additionalProperties': False}

SUMMARY_QUERY = {
    'type': 'object',
    'properties': {'all_tenants': v.boolean},
    'additionalProperties': False,
}
