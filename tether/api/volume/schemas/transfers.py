"""Schemas of volume transfers (/os-volume-transfer, /volume-transfers):
create, accept, the list query, and the answers."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v
from tether.api.volume import versions
from tether.api.volume.schemas import listing

# Cinder's "name_skip_leading_trailing_spaces": not blank (its spaces
# around are dropped).
_name = {'oneOf': [{'type': 'string', 'maxLength': 255, 'pattern': r'\S'},
                   {'type': 'null'}]}

CREATE = {
    'type': 'object',
    'properties': {
        'transfer': {
            'type': 'object',
            'properties': {
                'volume_id': v.uuid,
                'name': _name,
            },
            'required': ['volume_id'],
            'additionalProperties': False,
        },
    },
    'required': ['transfer'],
    'additionalProperties': False,
}

CREATE_V3_55 = copy.deepcopy(CREATE)
CREATE_V3_55['properties']['transfer']['properties']['no_snapshots'] = \
    v.boolean

ACCEPT = {
    'type': 'object',
    'properties': {
        'accept': {
            'type': 'object',
            'properties': {
                # A number is taken as its digits, as Cinder takes it.
                'auth_key': {'type': ['string', 'integer'],
                             'maxLength': 255,
                             'minimum': -2 ** 63, 'maximum': 2 ** 63},
            },
            'required': ['auth_key'],
            'additionalProperties': False,
        },
    },
    'required': ['accept'],
    'additionalProperties': False,
}

LIST_QUERY = listing.list_query(name=listing.STRING,
                                volume_id=listing.STRING)

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}


# Responses ------------------------------------------------------------------

# A list without details, and an accept.
_summary = rt.obj({
    'id': rt.uuid,
    'name': rt.string_or_null,
    'volume_id': rt.uuid,
    'links': rt.links,
})
_detail = rt.extended(_summary, {'created_at': rt.date_time},
                      ['created_at'])
_create = rt.extended(_detail, {'auth_key': {'type': 'string'}},
                      ['auth_key'])
_STEPS = (
    (versions.TRANSFER_WITH_SNAPSHOTS, {'no_snapshots': {'type': 'boolean'}},
     ['no_snapshots']),
    (versions.TRANSFER_WITH_HISTORY, {
        'source_project_id': {'type': 'string'},
        'destination_project_id': rt.string_or_null,
        'accepted': {'type': 'boolean'}},
     ['source_project_id', 'destination_project_id', 'accepted']),
)


def _one(transfer):
    return rt.wrapped('transfer', transfer)


def _list(transfer):
    return rt.obj({'transfers': {'type': 'array', 'items': transfer},
                   'transfers_links': rt.links}, required=['transfers'])


CREATE_RESPONSES = rt.growing(_create, _one, _STEPS)
SHOW_RESPONSES = rt.growing(_detail, _one, _STEPS)
ACCEPT_RESPONSE = _one(_summary)
LIST_RESPONSE = _list(_summary)
LIST_DETAIL_RESPONSES = rt.growing(_detail, _list, _STEPS)
