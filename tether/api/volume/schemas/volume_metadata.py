"""Schemas of /volumes/{id}/metadata."""

from tether.api import response_types as rt
from tether.api import validation as v

METADATA = {
    'type': 'object',
    'properties': {'metadata': v.metadata},
    'required': ['metadata'],
    'additionalProperties': False,
}

META_ITEM = {
    'type': 'object',
    'properties': {
        'meta': {
            'type': 'object',
            'patternProperties': v.metadata['patternProperties'],
            'additionalProperties': False,
            'minProperties': 1,
            'maxProperties': 1,
        },
    },
    'required': ['meta'],
    'additionalProperties': False,
}

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}


# Responses ------------------------------------------------------------------

# Every key a list, a create or a replace leaves (the snapshots' too).
METADATA_RESPONSE = rt.wrapped('metadata', rt.string_map)
# The one key of an item's show or update.
META_ITEM_RESPONSE = rt.wrapped('meta', dict(rt.string_map, minProperties=1,
                                             maxProperties=1))
