"""JSON schemas of /os-volumes (the proxy to the volume API, to 2.35):
create, and the list queries (Nova's)."""

from tether.api import response_types as rt

_text = {'type': 'string', 'maxLength': 255}

CREATE = {
    'type': 'object',
    'properties': {
        'volume': {
            'type': 'object',
            'properties': {
                # Nova takes "1" as well as 1; "0" is refused here (Nova
                # leaves it to the volume API).
                'size': {'type': ['integer', 'string'], 'minimum': 1,
                         'pattern': '^0*[1-9][0-9]{0,9}$',
                         'description': 'a size in GiB of at least 1'},
                'display_name': _text,
                'display_description': {'type': 'string',
                                        'maxLength': 65535},
                'volume_type': _text,
                'availability_zone': _text,
                'snapshot_id': _text,
                'metadata': {
                    'type': 'object',
                    'patternProperties': {'^.{1,255}$': _text},
                    'additionalProperties': False,
                    'description': 'an object of strings (keys of 1 to '
                                   '255 characters)'},
            },
            'required': ['size'],
            'additionalProperties': False,
        },
    },
    'required': ['volume'],
    'additionalProperties': False,
}

_non_negative = {'type': 'string', 'pattern': '^[0-9]+$', 'maxLength': 10,
                 'description': 'a non-negative integer'}

# Other keys are ignored, as Nova does for these proxies.
LIST_QUERY = {
    'type': 'object',
    'properties': {'limit': _non_negative, 'offset': _non_negative},
    'additionalProperties': True,
}


# Responses ------------------------------------------------------------------

# A volume's first attachment, or one empty object when it has none
# (Nova's "[{}]"): so no key is required.
_attachment = rt.obj({
    'id': {'type': 'string'},
    'volumeId': {'type': 'string'},
    'serverId': {'type': 'string'},
    'device': {'type': 'string'},
}, required=[])
_volume = rt.obj({
    'id': {'type': 'string'},
    'status': {'type': 'string'},
    'size': {'type': 'integer'},
    'availabilityZone': {'type': 'string'},
    'createdAt': rt.date_time,
    'attachments': {'type': 'array', 'items': _attachment},
    'displayName': rt.string_or_null,
    'displayDescription': rt.string_or_null,
    'volumeType': rt.string_or_null,
    'snapshotId': rt.string_or_null,
    'metadata': rt.string_map,
})

# List, detail, show and create answer the same keys.
LIST_RESPONSE = rt.wrapped('volumes', {'type': 'array', 'items': _volume})
SHOW_RESPONSE = rt.wrapped('volume', _volume)
