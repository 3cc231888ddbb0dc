"""JSON schemas of the server actions lock and unlock."""

from tether.api import validation

# Before 2.73 Nova takes any value of "lock" (and ignores it).
LOCK = validation.action('lock', {'description': 'any value (ignored)'})

# 2.73: null, or an object with an optional reason.
LOCK_V2_73 = validation.action('lock', {
    'type': ['object', 'null'],
    'properties': {'locked_reason': {
        'type': 'string', 'minLength': 1, 'maxLength': 255,
        'description': 'why the server is locked: 1 to 255 characters'}},
    'additionalProperties': False})

UNLOCK = validation.action('unlock', {'description': 'any value (ignored)'})
