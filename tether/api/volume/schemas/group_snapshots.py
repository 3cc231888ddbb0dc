"""Schemas of /group_snapshots: create, reset_status and the list
queries."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v
from tether.api.volume import versions
from tether.api.volume.schemas import listing

CREATE = {
    'type': 'object',
    'properties': {
        'group_snapshot': {
            'type': 'object',
            'properties': {
                'group_id': v.uuid,
                'name': v.string(nullable=True),
                'description': v.string(nullable=True),
            },
            'required': ['group_id'],
            'additionalProperties': False,
        },
    },
    'required': ['group_snapshot'],
    'additionalProperties': False,
}

# Cinder's statuses, in any case (it lowers them).
RESET_STATUS = v.action('reset_status', {
    'type': 'object',
    'properties': {'status': {'type': 'string', 'minLength': 1,
                              'maxLength': 255}},
    'required': ['status'],
    'additionalProperties': False,
})

# Below 3.29 Cinder reads no parameter of a list (no filter, no page).
LIST_QUERY_V329 = listing.list_query(
    name=listing.STRING, status=listing.STRING, group_id=listing.STRING)
LIST_QUERY_V345 = copy.deepcopy(LIST_QUERY_V329)
LIST_QUERY_V345['properties']['with_count'] = v.boolean
NO_QUERY = {'type': 'object', 'properties': {},
            'additionalProperties': False}


# Responses ------------------------------------------------------------------

_created = rt.obj({'id': rt.uuid, 'name': rt.string_or_null,
                   'group_type_id': rt.uuid})
_summary = rt.obj({'id': rt.uuid, 'name': rt.string_or_null})
_detail = rt.obj({
    'id': rt.uuid,
    'group_id': rt.uuid,
    'group_type_id': rt.uuid,
    'status': {'type': 'string'},
    'created_at': rt.date_time,
    'name': rt.string_or_null,
    'description': rt.string_or_null,
})
_STEPS = (
    # For whoever group:group_snapshot_project_attribute allows.
    (versions.GROUP_PROJECT_ID, {'project_id': {'type': 'string'}}, []),
)


def _list(item):
    return rt.obj({'group_snapshots': {'type': 'array', 'items': item},
                   'group_snapshot_links': rt.links},
                  required=['group_snapshots'])


CREATE_RESPONSE = rt.wrapped('group_snapshot', _created)
SHOW_RESPONSES = rt.growing(
    _detail, lambda i: rt.wrapped('group_snapshot', i), _STEPS)
LIST_RESPONSES = rt.growing(_summary, _list, (), [listing.COUNT_STEP])
LIST_DETAIL_RESPONSES = rt.growing(_detail, _list, _STEPS,
                                   [listing.COUNT_STEP])
