"""Schemas of /os-quota-sets: update, and the query strings."""

from tether.api import validation as v

# -1 is unlimited. Strings are accepted as Cinder accepts them; the handler
# turns them into integers and checks the upper bound of the digits.
_LIMIT = {
    'type': ['integer', 'string'],
    'pattern': '^(-1|[0-9]{1,10})$',
    'minimum': -1, 'maximum': v.DB_MAX_INT,
}

UPDATE = {
    'type': 'object',
    'properties': {
        'quota_set': {
            'type': 'object',
            'minProperties': 1,
            # Clients echo these back from a show; they are ignored.
            'properties': {'id': {'type': 'string'},
                           'tenant_id': {'type': 'string'}},
            # Names are checked by the quota module, which knows them all.
            'additionalProperties': _LIMIT,
        },
        'skip_validation': v.boolean,
    },
    'required': ['quota_set'],
    'additionalProperties': False,
}

# Keys of a quota_set body that are not limits.
NON_QUOTA_KEYS = ('id', 'tenant_id')

SHOW_QUERY = {
    'type': 'object',
    'properties': {'usage': v.boolean},
    'additionalProperties': False,
}

NO_QUERY = {'type': 'object', 'properties': {},
            'additionalProperties': False}
