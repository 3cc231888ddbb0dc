"""JSON schemas of /servers/{server_id}/metadata (Nova's): keys of 1 to
255 characters of letters, digits and ``-_:. ``, values of up to 255."""

from tether.api.compute.schemas import servers
from tether.api import response_types as rt
from tether.api import validation

# Nova ignores query parameters (2.102, which rejects them, is beyond
# tether's latest version).
ANY_QUERY = validation.IGNORED_QUERY

_metadata = dict(servers.metadata, description='an object of keys of 1 '
                 'to 255 letters, digits and "-_:. " with strings of up '
                 'to 255 characters')


def _body(key, schema):
    return {'type': 'object', 'properties': {key: schema},
            'required': [key], 'additionalProperties': False}


CREATE = _body('metadata', _metadata)
UPDATE_ALL = _body('metadata', _metadata)
UPDATE = _body('meta', dict(_metadata, minProperties=1, maxProperties=1,
                            description='an object of one key (the one '
                                        'of the URL) with a string of up '
                                        'to 255 characters'))


# Responses ------------------------------------------------------------------

_stored = {'type': 'object', 'additionalProperties': {'type': 'string'}}

# The list, and what a merge (POST) or a replace (PUT) answers: all of
# the server's metadata after it.
METADATA_RESPONSE = rt.wrapped('metadata', _stored)
# A key shown or set.
META_RESPONSE = rt.wrapped('meta', dict(_stored, minProperties=1,
                                        maxProperties=1))
