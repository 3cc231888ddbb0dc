"""Schemas of /groups: create, create-from-src, update, the actions
(delete, reset_status) and the list and show queries."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v
from tether.api.volume import versions
from tether.api.volume.schemas import listing

_NAME = v.string(nullable=True)
_DESCRIPTION = v.string(nullable=True)
# Volume ids separated by commas (Cinder's description type: 255 at most).
_VOLUME_IDS = v.string(nullable=True)

CREATE = {
    'type': 'object',
    'properties': {
        'group': {
            'type': 'object',
            'properties': {
                'name': _NAME,
                'description': _DESCRIPTION,
                # A group type's id or name.
                'group_type': {'type': 'string', 'minLength': 1,
                               'maxLength': 255},
                'volume_types': {
                    'type': 'array', 'minItems': 1, 'uniqueItems': True,
                    'items': {'type': 'string', 'minLength': 1,
                              'maxLength': 255},
                },
                'availability_zone': v.string(min_length=1, nullable=True),
            },
            'required': ['group_type', 'volume_types'],
            'additionalProperties': False,
        },
    },
    'required': ['group'],
    'additionalProperties': False,
}

CREATE_FROM_SRC = v.action('create-from-src', {
    'type': 'object',
    'properties': {
        'name': _NAME,
        'description': _DESCRIPTION,
        # openstacksdk sends both, the one it does not use null (which
        # Cinder refuses): tether takes null as not given, and the
        # handler asks for exactly one.
        'group_snapshot_id': {'oneOf': [v.uuid, {'type': 'null'}]},
        'source_group_id': {'oneOf': [v.uuid, {'type': 'null'}]},
    },
    'additionalProperties': False,
})

UPDATE = {
    'type': 'object',
    'properties': {
        'group': {
            'type': 'object',
            'properties': {
                'name': _NAME,
                'description': _DESCRIPTION,
                'add_volumes': _VOLUME_IDS,
                'remove_volumes': _VOLUME_IDS,
            },
            'anyOf': [{'required': ['name']},
                      {'required': ['description']},
                      {'required': ['add_volumes']},
                      {'required': ['remove_volumes']}],
            'additionalProperties': False,
        },
    },
    'required': ['group'],
    'additionalProperties': False,
}

DELETE = v.action('delete', {
    'type': 'object',
    'properties': {'delete-volumes': v.boolean},
    'additionalProperties': False,
})

# Cinder's statuses, in any case (it lowers them).
RESET_STATUS = v.action('reset_status', {
    'type': 'object',
    'properties': {'status': {'type': 'string', 'minLength': 1,
                              'maxLength': 255}},
    'required': ['status'],
    'additionalProperties': False,
})

LIST_QUERY = listing.list_query(name=listing.STRING)
# 3.25: the detail list's and the show's list_volume.
LIST_QUERY_V325 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V325['properties']['list_volume'] = v.boolean
NO_QUERY = {'type': 'object', 'properties': {},
            'additionalProperties': False}
SHOW_QUERY_V325 = {'type': 'object',
                   'properties': {'list_volume': v.boolean},
                   'additionalProperties': False}


# Responses ------------------------------------------------------------------

_summary = rt.obj({'id': rt.uuid, 'name': rt.string_or_null})
_detail = rt.obj({
    'id': rt.uuid,
    'name': rt.string_or_null,
    'description': rt.string_or_null,
    'status': {'type': 'string'},
    'availability_zone': rt.string_or_null,
    'created_at': rt.date_time,
    'group_type': rt.uuid,
    'volume_types': {'type': 'array', 'items': rt.uuid},
})
_STEPS = (
    (versions.GROUP_SNAPSHOT_ID, {'group_snapshot_id': rt.uuid_or_null,
                                  'source_group_id': rt.uuid_or_null},
     ['group_snapshot_id', 'source_group_id']),
    # With list_volume=true only.
    (versions.GROUP_VOLUMES, {'volumes': {'type': 'array',
                                          'items': rt.uuid}}, []),
    (versions.GROUP_REPLICATION, {'replication_status': {'type': 'string'}},
     ['replication_status']),
    # For whoever group:group_project_attribute allows (administrators).
    (versions.GROUP_PROJECT_ID, {'project_id': {'type': 'string'}}, []),
)


def _list(item):
    return rt.obj({'groups': {'type': 'array', 'items': item},
                   'group_links': rt.links}, required=['groups'])


CREATE_RESPONSE = rt.wrapped('group', _summary)
SHOW_RESPONSES = rt.growing(_detail, lambda i: rt.wrapped('group', i),
                            _STEPS)
LIST_RESPONSES = rt.growing(_summary, _list, (), [listing.COUNT_STEP])
LIST_DETAIL_RESPONSES = rt.growing(_detail, _list, _STEPS,
                                   [listing.COUNT_STEP])
