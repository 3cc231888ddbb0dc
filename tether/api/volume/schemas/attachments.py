"""Schemas of /attachments: create (per version), update, complete, lists,
and their answers."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v
from tether.api.volume.schemas import listing
from tether.objects import fields

# jsonschema's draft 7 does not check format "uuid": a pattern does.
uuid = {
    'description': 'a UUID (32 hexadecimal digits as 8-4-4-4-12)',
    'type': 'string',
    'pattern': '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-'
               '[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
}

mode = {'description': '"rw" or "ro"', 'type': 'string',
        'enum': ['rw', 'ro']}

# What a consumer says about itself. Backends read different keys, so
# unknown keys are kept; the keys tether reads have a type.
connector = {
    'type': 'object',
    'minProperties': 1,
    'maxProperties': 100,
    'properties': {
        'host': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'mountpoint': {'type': ['string', 'null'], 'maxLength': 255},
        'mode': mode,
        'initiator': {'type': ['string', 'null'], 'maxLength': 255},
        'ip': {'type': ['string', 'null'], 'maxLength': 255},
        'platform': {'type': ['string', 'null'], 'maxLength': 255},
        'os_type': {'type': ['string', 'null'], 'maxLength': 255},
        'multipath': {'oneOf': [v.boolean, {'type': 'null'}]},
    },
    'additionalProperties': True,
}

# On create, as in Cinder, an empty connector is no connector: openstacksdk
# sends {} for `openstack volume attachment create` without --connect.
_create_connector = copy.deepcopy(connector)
del _create_connector['minProperties']

_CREATE_ATTACHMENT = {
    'type': 'object',
    'properties': {
        'volume_uuid': uuid,
        'instance_uuid': {'oneOf': [uuid, {'type': 'null'}]},
        'connector': {'oneOf': [_create_connector, {'type': 'null'}]},
    },
    'required': ['volume_uuid'],
    'additionalProperties': False,
}

CREATE = {
    'type': 'object',
    'properties': {'attachment': _CREATE_ATTACHMENT},
    'required': ['attachment'],
    'additionalProperties': False,
}

CREATE_V3_54 = copy.deepcopy(CREATE)
CREATE_V3_54['properties']['attachment']['properties']['mode'] = mode

UPDATE = {
    'type': 'object',
    'properties': {
        'attachment': {
            'type': 'object',
            'properties': {'connector': connector},
            'required': ['connector'],
            'additionalProperties': False,
        },
    },
    'required': ['attachment'],
    'additionalProperties': False,
}

# Any value: openstacksdk sends the attachment's ID, others {} or null.
# The only action: any other key is reported by name (not "os-complete is
# required").
COMPLETE = {
    'type': 'object',
    'properties': {'os-complete': {}},
    'minProperties': 1,
    'additionalProperties': False,
}

LIST_QUERY = listing.list_query(**{
    key: listing.STRING
    for key in ('id', 'volume_id', 'instance_id', 'status', 'attach_status')})

SHOW_QUERY = {'type': 'object', 'properties': {},
              'additionalProperties': False}

DELETE_QUERY = SHOW_QUERY


# Responses ------------------------------------------------------------------

_summary = rt.obj({
    'id': rt.uuid,
    'status': {'type': 'string',
               'enum': list(fields.VolumeAttachStatus.ALL)},
    'instance': rt.uuid_or_null,
    'volume_id': rt.uuid,
})
# Cinder writes a time not yet come as an empty string.
_time = {'anyOf': [rt.date_time, {'type': 'string', 'maxLength': 0}]}
_shared = {'type': 'array', 'items': rt.uuid}
_detail = rt.extended(_summary, {
    'attached_at': _time,
    'detached_at': _time,
    # "null" (a string, as Cinder's) until a mode is chosen.
    'attach_mode': {'type': 'string', 'enum': ['rw', 'ro', 'null']},
    # These two where volume:attachment_connection_info allows (Cinder
    # shows the connection info to every reader and no connector).
    'connection_info': {'type': ['object', 'null']},
    'connector': {'type': ['object', 'null']},
    # tether's: the attachments sharing this one's host connection (a
    # show's; Cinder has none).
    'shared_connections_by_attachment': _shared,
}, required=['attached_at', 'detached_at', 'attach_mode'])

SHOW_RESPONSE = rt.wrapped('attachment', _detail)


def _list(attachment):
    return rt.obj({
        'attachments': {'type': 'array', 'items': attachment},
        # tether's: the next page (Cinder's lists have no links).
        'attachments_links': rt.links,
    }, required=['attachments'])


LIST_RESPONSE = _list(_summary)
LIST_DETAIL_RESPONSE = _list(_detail)
# The attachments of the volume left, and (tether's) those of them that
# share the deleted one's host connection.
DELETE_RESPONSE = rt.obj({
    'attachments': {'type': 'array', 'items': _summary},
    'shared_connections_by_attachment': _shared,
}, required=['attachments'])
