"""JSON schemas of /flavors/{flavor_id}/os-extra_specs (Nova's): keys of
1 to 255 letters, digits and ``-_:. ``, values strings of up to 255
characters or numbers (whose length the handler checks)."""

from tether.api import response_types as rt
from tether.api import validation

# Nova ignores query parameters (2.102, which rejects them, is beyond
# tether's latest version).
ANY_QUERY = validation.IGNORED_QUERY

_VALUE = {'type': ['string', 'number'], 'maxLength': 255}

_specs = {
    'type': 'object',
    'patternProperties': {'^[a-zA-Z0-9-_:. ]{1,255}$': _VALUE},
    'additionalProperties': False,
    'description': 'an object of keys of 1 to 255 letters, digits and '
                   '"-_:. " with strings of up to 255 characters or numbers',
}

CREATE = {'type': 'object', 'properties': {'extra_specs': _specs},
          'required': ['extra_specs'], 'additionalProperties': False}
UPDATE = dict(_specs, minProperties=1, maxProperties=1,
              description='an object of one key (the one of the URL) with '
                          'a string of up to 255 characters or a number')


# Responses ------------------------------------------------------------------

_KEY = '^[a-zA-Z0-9-_:. ]{1,255}$'
_stored = {'type': 'object', 'patternProperties': {_KEY: {'type': 'string'}},
           'additionalProperties': False}
# A create or a set answers what it was asked (Nova's), so a number given
# is a number in the answer, though it is kept as its string.
_given = {'type': 'object', 'patternProperties': {_KEY: _VALUE},
          'additionalProperties': False}

LIST_RESPONSE = rt.wrapped('extra_specs', _stored)
CREATE_RESPONSE = rt.wrapped('extra_specs', _given)
# One key, at the top level.
SHOW_RESPONSE = dict(_stored, minProperties=1, maxProperties=1)
UPDATE_RESPONSE = dict(_given, minProperties=1, maxProperties=1)
