"""JSON schemas of /os-snapshots (the proxy to the volume API, to 2.35):
create, and the list queries (Nova's)."""

from tether.api.compute.schemas import volumes
from tether.api import response_types as rt
from tether.api import validation

_text = {'type': 'string', 'maxLength': 255}

CREATE = {
    'type': 'object',
    'properties': {
        'snapshot': {
            'type': 'object',
            'properties': {
                'volume_id': _text,
                'force': validation.boolean,
                'display_name': _text,
                'display_description': {'type': 'string',
                                        'maxLength': 65535},
            },
            'required': ['volume_id'],
            'additionalProperties': False,
        },
    },
    'required': ['snapshot'],
    'additionalProperties': False,
}

LIST_QUERY = volumes.LIST_QUERY


# Responses ------------------------------------------------------------------

_snapshot = rt.obj({
    'id': {'type': 'string'},
    'volumeId': {'type': 'string'},
    'status': {'type': 'string'},
    'size': {'type': 'integer'},
    'createdAt': rt.date_time,
    'displayName': rt.string_or_null,
    'displayDescription': rt.string_or_null,
})

# List, detail, show and create answer the same keys.
LIST_RESPONSE = rt.wrapped('snapshots', {'type': 'array',
                                         'items': _snapshot})
SHOW_RESPONSE = rt.wrapped('snapshot', _snapshot)
