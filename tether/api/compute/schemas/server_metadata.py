"""JSON schemas of /servers/{server_id}/metadata (Nova's): keys of 1 to
255 characters of letters, digits and ``-_:. ``, values of up to 255."""

from tether.api.compute.schemas import servers
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
