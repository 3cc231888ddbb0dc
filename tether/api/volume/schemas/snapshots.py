"""Schemas of /snapshots: create, update, list queries, metadata and the
actions."""

import copy

from tether.api import validation as v
from tether.api.volume.schemas import listing
from tether.api.volume.schemas import volume_metadata
from tether.objects import fields

CREATE = {
    'type': 'object',
    'properties': {
        'snapshot': {
            'type': 'object',
            'properties': {
                # null: Cinder looks it up, and answers 404.
                'volume_id': {'oneOf': [v.uuid, {'type': 'null'}]},
                'force': v.boolean,
                'name': v.string(nullable=True),
                'display_name': v.string(nullable=True),
                'description': v.string(nullable=True),
                'display_description': v.string(nullable=True),
                'metadata': {'oneOf': [v.metadata, {'type': 'null'}]},
            },
            'required': ['volume_id'],
            'additionalProperties': False,
        },
    },
    'required': ['snapshot'],
    'additionalProperties': False,
}

UPDATE = {
    'type': 'object',
    'properties': {
        'snapshot': {
            'type': 'object',
            'properties': {
                'name': v.string(nullable=True),
                'display_name': v.string(nullable=True),
                'description': v.string(nullable=True),
                'display_description': v.string(nullable=True),
            },
            'additionalProperties': False,
        },
    },
    'required': ['snapshot'],
    'additionalProperties': False,
}

LIST_QUERY = listing.list_query(
    name=listing.STRING, status=listing.STRING, volume_id=listing.STRING,
    metadata=listing.METADATA_FILTER)

LIST_QUERY_V345 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V345['properties']['with_count'] = v.boolean

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}

# A snapshot's metadata is a volume's, in shape.
METADATA = volume_metadata.METADATA
META_ITEM = volume_metadata.META_ITEM

RESET_STATUS = v.action('os-reset_status', {
    'type': 'object',
    'properties': {
        'status': {'type': 'string',
                   'enum': list(fields.SnapshotStatus.RESETTABLE)},
    },
    'required': ['status'],
    'additionalProperties': False,
})

UPDATE_STATUS = v.action('os-update_snapshot_status', {
    'type': 'object',
    'properties': {
        'status': {'type': 'string',
                   'enum': list(fields.SnapshotStatus.ALL)},
        'progress': {'type': 'string', 'pattern': '^(100|[1-9]?[0-9])%$'},
    },
    'required': ['status'],
    'additionalProperties': False,
})

FORCE_DELETE = v.action('os-force_delete', {
    'type': ['object', 'null'],
    'properties': {},
    'additionalProperties': False,
})
