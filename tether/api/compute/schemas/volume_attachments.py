"""JSON schemas of /servers/{server_id}/os-volume_attachments."""

import copy

from tether.api.compute.schemas import servers

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
