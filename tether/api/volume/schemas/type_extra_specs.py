"""Schemas of /types/{id}/extra_specs: create, update one key."""

import copy

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
