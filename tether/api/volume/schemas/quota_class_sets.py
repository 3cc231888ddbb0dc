"""Schemas of /os-quota-class-sets (Cinder's): the update body, and what
show and update answer."""

from tether.api import response_types as rt
from tether.api import validation as v

# Cinder's: a number as an integer from -1, or as a string of digits;
# the handler checks the names (every resource, and each volume type's).
_LIMIT = {
    'type': ['integer', 'string'],
    'pattern': '^[0-9]{1,10}$',
    'minimum': -1, 'maximum': v.DB_MAX_INT,
}

UPDATE = {
    'type': 'object',
    'properties': {
        'quota_class_set': {
            'type': 'object',
            'patternProperties': {'^[a-zA-Z0-9-_:. ]{1,300}$': _LIMIT},
            'additionalProperties': False,
        },
    },
    'required': ['quota_class_set'],
    'additionalProperties': False,
}

SHOW_QUERY = {'type': 'object', 'properties': {},
              'additionalProperties': False}


# Responses ------------------------------------------------------------------

# Cinder's resources (groups' too), each a limit; and one of each kind
# per volume type (volumes_<type> ...).
_RESOURCES = ('volumes', 'gigabytes', 'per_volume_gigabytes', 'snapshots',
              'backups', 'backup_gigabytes', 'groups')
_limit = {'type': 'integer', 'minimum': -1}


def _quota_class_set(with_id):
    properties = dict.fromkeys(_RESOURCES, _limit)
    if with_id:
        properties['id'] = {'type': 'string'}
    return rt.wrapped('quota_class_set',
                      rt.obj(properties, additional=_limit))


SHOW_RESPONSE = _quota_class_set(with_id=True)
UPDATE_RESPONSE = _quota_class_set(with_id=False)
