"""Schemas of Cinder's legacy attach actions on POST /volumes/{id}/action."""

from tether.api import response_types as rt
from tether.api import validation as v

# Cinder takes any value for these (its schema says nothing of it);
# clients send {} (Tempest) or null (openstacksdk, cinderclient), which
# is what tether takes.
_NOTHING = {'type': ['object', 'null'], 'maxProperties': 0}

RESERVE = v.action('os-reserve', _NOTHING)
UNRESERVE = v.action('os-unreserve', _NOTHING)
BEGIN_DETACHING = v.action('os-begin_detaching', _NOTHING)
ROLL_DETACHING = v.action('os-roll_detaching', _NOTHING)

_UUID_OR_NULL = {'anyOf': [v.uuid, {'type': 'null'}]}

ATTACH = v.action('os-attach', {
    'type': 'object',
    'properties': {
        'instance_uuid': v.uuid,
        'host_name': v.string(0, 255),
        'mountpoint': v.string(1, 255),
        'mode': {'type': 'string', 'enum': ['rw', 'ro']},
    },
    'required': ['mountpoint'],
    'anyOf': [{'required': ['instance_uuid']}, {'required': ['host_name']}],
    'additionalProperties': False,
})

# Cinder takes null for the whole body too.
DETACH = v.action('os-detach', {
    'type': ['object', 'null'],
    'properties': {'attachment_id': _UUID_OR_NULL},
    'additionalProperties': False,
})

# Cinder also takes a connector given as a string; tether only the object
# os-brick and every client send.
INITIALIZE_CONNECTION = v.action('os-initialize_connection', {
    'type': 'object',
    'properties': {'connector': {'type': 'object'}},
    'required': ['connector'],
    'additionalProperties': False,
})

TERMINATE_CONNECTION = v.action('os-terminate_connection', {
    'type': 'object',
    'properties': {'connector': {'type': ['object', 'null']}},
    'required': ['connector'],
    'additionalProperties': False,
})

FORCE_DETACH = v.action('os-force_detach', {
    'type': 'object',
    'properties': {
        'connector': {'type': ['object', 'null']},
        'attachment_id': _UUID_OR_NULL,
    },
    'additionalProperties': False,
})


# Responses ------------------------------------------------------------------

# The driver's connection info, as the attachments API shows it, and
# Cinder's enforce_multipath (the connector's, false without one).
INITIALIZE_CONNECTION_RESPONSE = rt.wrapped('connection_info', rt.obj({
    'driver_volume_type': {'type': 'string'},
    'data': {'type': 'object'},
    'enforce_multipath': {'type': 'boolean'},
}, additional=True))
