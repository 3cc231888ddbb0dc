"""JSON schemas of the server actions pause and unpause (each takes
null, as openstacksdk sends it, or an empty object)."""

from tether.api import validation

NOTHING = {'type': ['object', 'null'], 'properties': {},
           'additionalProperties': False,
           'description': 'null (or {})'}

PAUSE = validation.action('pause', NOTHING)
UNPAUSE = validation.action('unpause', NOTHING)
