"""JSON schemas of the server actions tether serves."""

START = {'type': 'object',
         'properties': {'os-start': {'type': ['object', 'null']}},
         'required': ['os-start'], 'additionalProperties': False}

STOP = {'type': 'object',
        'properties': {'os-stop': {'type': ['object', 'null']}},
        'required': ['os-stop'], 'additionalProperties': False}

REBOOT = {
    'type': 'object',
    'properties': {'reboot': {
        'type': 'object',
        'properties': {'type': {
            'type': 'string',
            'enum': ['HARD', 'Hard', 'hard', 'SOFT', 'Soft', 'soft'],
            'description': 'HARD or SOFT'}},
        'required': ['type'], 'additionalProperties': False}},
    'required': ['reboot'], 'additionalProperties': False}
