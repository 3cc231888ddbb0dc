"""Schemas of /os-quota-sets: update, and the query strings."""

from tether.api import response_types as rt
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


# Responses ------------------------------------------------------------------

# Cinder's resources, each a limit (-1: unlimited); Cinder adds one of
# each per volume type (volumes_<type> ...), which tether does not have.
_RESOURCES = ('volumes', 'gigabytes', 'per_volume_gigabytes', 'snapshots',
              'backups', 'backup_gigabytes', 'groups')
_limit = {'type': 'integer', 'minimum': -1}
# With usage=true, each resource is this (Cinder's nested quotas, gone,
# added "allocated").
_usage = rt.obj({'limit': _limit,
                 'in_use': {'type': 'integer', 'minimum': 0},
                 'reserved': {'type': 'integer', 'minimum': 0}})


def _quota_set(value, with_id=True):
    """The limits (``value``: _limit), or their usage (_usage)."""
    properties = dict.fromkeys(_RESOURCES, value)
    if with_id:
        properties['id'] = {'type': 'string'}
    return rt.obj(properties, additional=value)


# A show (with its usage when asked) and the defaults name the project;
# an update does not.
SHOW_RESPONSE = rt.wrapped('quota_set', {
    'oneOf': [_quota_set(_limit), _quota_set(_usage)]})
DEFAULTS_RESPONSE = rt.wrapped('quota_set', _quota_set(_limit))
UPDATE_RESPONSE = rt.wrapped('quota_set', _quota_set(_limit, with_id=False))
