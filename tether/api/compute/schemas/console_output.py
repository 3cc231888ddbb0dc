"""JSON schemas of the server action os-getConsoleOutput and of its
answer."""

from tether.api import response_types as rt

# Nova's schema: an integer, or a string of one; -1 (or null, or no
# length) means all. tether's validator also bounds the string form, so
# "-5" is refused as -5 is.
GET_CONSOLE_OUTPUT = {
    'type': 'object',
    'properties': {'os-getConsoleOutput': {
        'type': 'object',
        'properties': {'length': {
            'type': ['integer', 'string', 'null'],
            'pattern': '^-?[0-9]+$',
            'minimum': -1,
            'description': 'an integer of -1 or more (-1: all lines)'}},
        'additionalProperties': False}},
    'required': ['os-getConsoleOutput'], 'additionalProperties': False}


# Responses ------------------------------------------------------------------

GET_CONSOLE_OUTPUT_RESPONSE = rt.obj({'output': {'type': 'string'}})
