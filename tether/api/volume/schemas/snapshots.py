"""Schemas of /snapshots: create, update, list queries, metadata and the
actions."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v
from tether.api.volume import versions
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


# Responses ------------------------------------------------------------------

# What a list without details answers (at every microversion), and a
# create and an update with the keys of their microversion.
_snapshot = rt.obj({
    'id': rt.uuid,
    'name': rt.string_or_null,
    'description': rt.string_or_null,
    'volume_id': rt.uuid,
    'status': {'type': 'string'},
    'size': {'type': 'integer'},
    'created_at': rt.date_time,
    'updated_at': rt.date_time_or_null,
    'metadata': rt.string_map,
})
# A show and a list with details add these, for whoever the policy lets
# see them (by default whoever may read the snapshot).
_snapshot_detail = rt.extended(_snapshot, {
    'os-extended-snapshot-attributes:project_id': {'type': 'string'},
    'os-extended-snapshot-attributes:progress': {
        'type': 'string', 'pattern': '^(100|[1-9]?[0-9])%$'},
})
_SNAPSHOT_STEPS = (
    (versions.GROUP_SNAPSHOT_ID, {'group_snapshot_id': rt.uuid_or_null},
     ['group_snapshot_id']),
    (versions.SNAPSHOT_USER_ID, {'user_id': {'type': 'string'}},
     ['user_id']),
    (versions.CONSUMES_QUOTA, {'consumes_quota': {'type': 'boolean'}},
     ['consumes_quota']),
)


def _one(snapshot):
    return rt.wrapped('snapshot', snapshot)


def _list(snapshot):
    return rt.obj({'snapshots': {'type': 'array', 'items': snapshot},
                   'snapshots_links': rt.links}, required=['snapshots'])


CREATE_RESPONSES = rt.growing(_snapshot, _one, _SNAPSHOT_STEPS)
UPDATE_RESPONSES = CREATE_RESPONSES
SHOW_RESPONSES = rt.growing(_snapshot_detail, _one, _SNAPSHOT_STEPS)
LIST_RESPONSES = rt.growing(_snapshot, _list, (), [listing.COUNT_STEP])
LIST_DETAIL_RESPONSES = rt.growing(_snapshot_detail, _list, _SNAPSHOT_STEPS,
                                   [listing.COUNT_STEP])
METADATA_RESPONSE = volume_metadata.METADATA_RESPONSE
META_ITEM_RESPONSE = volume_metadata.META_ITEM_RESPONSE
