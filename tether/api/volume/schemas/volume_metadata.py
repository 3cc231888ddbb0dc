"""Schemas of /volumes/{id}/metadata."""

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
