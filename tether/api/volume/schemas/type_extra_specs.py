"""Schemas of /types/{id}/extra_specs: create, update one key, and the
answers."""

import copy

from tether.api import response_types as rt
from tether.api.volume.schemas import types

CREATE = {
    'type': 'object',
    'properties': {'extra_specs': types.EXTRA_SPECS},
    'required': ['extra_specs'],
    'additionalProperties': False,
}

# {"<key>": "<value>"}: exactly the key of the URL (checked by the handler).
UPDATE = copy.deepcopy(types.EXTRA_SPECS)
UPDATE.update({'minProperties': 1, 'maxProperties': 1})

NO_QUERY = types.NO_QUERY


# Responses ------------------------------------------------------------------

# All of them (a list, a create) or one key alone (a show and an update
# of it answer {key: value}).
EXTRA_SPECS_RESPONSE = rt.wrapped('extra_specs', rt.string_map)
EXTRA_SPEC_RESPONSE = dict(rt.string_map, minProperties=1, maxProperties=1)
