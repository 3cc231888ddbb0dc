"""JSON schemas of /os-quota-class-sets (Nova's): the update body and
what show and update answer, per microversion. Until 2.50 the answers
lack the server group quotas (which an update may set all the same) and
keep the network ones; from 2.57 the personality quotas are gone."""

from tether.api.compute.schemas import quota_sets
from tether.api.compute import versions
from tether.api import response_types as rt
from tether.api import validation
from tether.compute import quota


def _update(names):
    return {
        'type': 'object',
        'properties': {'quota_class_set': {
            'type': 'object',
            'properties': dict.fromkeys(names, validation.quota_limit),
            'additionalProperties': False}},
        'required': ['quota_class_set'],
        'additionalProperties': False,
    }


UPDATE = _update(quota_sets.ALL)
UPDATE_V2_50 = _update(quota_sets.V2_36)
UPDATE_V2_57 = _update(quota_sets.V2_57)

SHOW_QUERY = validation.IGNORED_QUERY

# What show and update answer below 2.50: no server group quotas.
SHOWN = quota_sets.resources(quota.SERVER_GROUPS)

_limit = {'type': 'integer', 'minimum': -1}


def _answer(names, with_id):
    properties = dict.fromkeys(names, _limit)
    if with_id:
        properties['id'] = {'type': 'string'}
    return rt.wrapped('quota_class_set', rt.obj(properties))


def _by_version(with_id):
    return rt.by_version(
        _answer(SHOWN, with_id),
        (versions.QUOTA_CLASS_SERVER_GROUPS,
         _answer(quota_sets.V2_36, with_id)),
        (versions.PERSONALITY_QUOTAS_REMOVED,
         _answer(quota_sets.V2_57, with_id)))


SHOW_RESPONSES = _by_version(with_id=True)
UPDATE_RESPONSES = _by_version(with_id=False)
