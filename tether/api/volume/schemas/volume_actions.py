"""Schemas of POST /volumes/{id}/action, one per action."""

from tether.api import validation as v
from tether.objects import fields


def _action(name, inner):
    return {
        'type': 'object',
        'properties': {name: inner},
        'required': [name],
        'additionalProperties': False,
    }


EXTEND = _action('os-extend', {
    'type': 'object',
    'properties': {'new_size': v.positive_integer},
    'required': ['new_size'],
    'additionalProperties': False,
})

RESET_STATUS = _action('os-reset_status', {
    'type': 'object',
    'properties': {
        'status': {'type': 'string',
                   'enum': list(fields.VolumeStatus.ALL)},
        'attach_status': {'type': 'string',
                          'enum': ['attached', 'detached']},
        'migration_status': {'type': 'string', 'maxLength': 255},
    },
    'minProperties': 1,
    'additionalProperties': False,
})

# Cinder takes a string or null here and treats "false" as true; tether
# takes exactly a JSON boolean.
EXTEND_VOLUME_COMPLETION = _action('os-extend_volume_completion', {
    'type': 'object',
    'properties': {'error': {'type': 'boolean'}},
    'required': ['error'],
    'additionalProperties': False,
})
