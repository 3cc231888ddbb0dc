"""JSON schemas of /servers/{server_id}/os-volume_attachments."""

import copy

from tether.api.compute.schemas import servers
from tether.api import response_types as rt

_attachment = {
    'type': 'object',
    'properties': {
        'volumeId': servers.uuid,
        'device': {'type': ['string', 'null'], 'maxLength': 255,
                   'pattern': '^(/dev/[a-z0-9]+)?$',
                   'description': 'a device name such as /dev/sdb (a '
                                  'hint; the hypervisor picks the name)'},
    },
    'required': ['volumeId'],
    'additionalProperties': False,
}


def _create(attachment):
    return {'type': 'object',
            'properties': {'volumeAttachment': attachment},
            'required': ['volumeAttachment'],
            'additionalProperties': False}


CREATE = _create(_attachment)
_v249 = copy.deepcopy(_attachment)
_v249['properties']['tag'] = servers.tag
CREATE_V2_49 = _create(_v249)
_v279 = copy.deepcopy(_v249)
_v279['properties']['delete_on_termination'] = servers.boolean
CREATE_V2_79 = _create(_v279)

# PUT: below 2.85 a swap to the volume ``volumeId`` (the body has that
# key alone); from 2.85 the keys of a GET answer may be sent back, of
# which only ``delete_on_termination`` may change (and ``volumeId``,
# which asks for a swap).
UPDATE = _create({'type': 'object',
                  'properties': {'volumeId': servers.uuid},
                  'required': ['volumeId'],
                  'additionalProperties': False})
_v285 = copy.deepcopy(_v279)
_v285['properties'].update({
    'serverId': servers.uuid,
    'id': servers.uuid,
    'tag': {'oneOf': [servers.tag, {'type': 'null'}]},
})
UPDATE_V2_85 = _create(_v285)

LIST_QUERY = {
    'type': 'object',
    'properties': {
        'limit': {'type': 'string', 'pattern': '^[0-9]+$', 'maxLength': 10,
                  'description': 'a non-negative integer'},
        'offset': {'type': 'string', 'pattern': '^[0-9]+$',
                   'maxLength': 10,
                   'description': 'a non-negative integer'},
    },
    'additionalProperties': True,
}


# Responses ------------------------------------------------------------------

# The device is null while a volume's attach is in progress.
_shown = rt.obj({
    'id': {'type': 'string'},
    'volumeId': {'type': 'string'},
    'serverId': {'type': 'string'},
    'device': rt.string_or_null,
}, required=['id', 'volumeId', 'serverId'])
_shown_v2_70 = rt.extended(_shown, {'tag': rt.string_or_null}, ['tag'])
_shown_v2_79 = rt.extended(_shown_v2_70, {
    'delete_on_termination': {'type': 'boolean'}}, ['delete_on_termination'])
# 2.89: the IDs of the volume API's attachment (null until the attach
# has made one; Nova's of an attachment of old may be null too) and of
# the block device mapping, and no "id" (the volume's ID again), in lists
# and shows only.
_shown_v2_89 = rt.extended(
    dict(_shown_v2_79,
         properties={k: v for k, v in _shown_v2_79['properties'].items()
                     if k != 'id'},
         required=[k for k in _shown_v2_79['required'] if k != 'id']),
    {'attachment_id': rt.uuid_or_null, 'bdm_uuid': rt.uuid},
    ['attachment_id', 'bdm_uuid'])


def _list(attachment):
    return rt.wrapped('volumeAttachments',
                      {'type': 'array', 'items': attachment})


LIST_RESPONSE = _list(_shown)
LIST_RESPONSE_V2_70 = _list(_shown_v2_70)
LIST_RESPONSE_V2_79 = _list(_shown_v2_79)
LIST_RESPONSE_V2_89 = _list(_shown_v2_89)
SHOW_RESPONSE = rt.wrapped('volumeAttachment', _shown)
SHOW_RESPONSE_V2_70 = rt.wrapped('volumeAttachment', _shown_v2_70)
SHOW_RESPONSE_V2_79 = rt.wrapped('volumeAttachment', _shown_v2_79)
SHOW_RESPONSE_V2_89 = rt.wrapped('volumeAttachment', _shown_v2_89)
# An attach answers as a show did before 2.89, at every version.
CREATE_RESPONSE = SHOW_RESPONSE
CREATE_RESPONSE_V2_70 = SHOW_RESPONSE_V2_70
CREATE_RESPONSE_V2_79 = SHOW_RESPONSE_V2_79
