"""JSON schemas of /os-snapshots (the proxy to the volume API, to 2.35):
create, and the list queries (Nova's)."""

from tether.api.compute.schemas import volumes
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
