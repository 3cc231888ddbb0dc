"""JSON schemas of /os-quota-sets (Nova's): the update body and the
queries, and what each answers, per microversion. Nova's network quotas
leave at 2.36 and its personality quotas at 2.57."""

from tether.api.compute import versions
from tether.api import response_types as rt
from tether.api import validation
from tether.compute import quota

_user_id = {'type': 'string', 'minLength': 1, 'maxLength': 255}
# A query parameter given twice is a list; Nova takes the first.
_user_id_query = {'anyOf': [_user_id,
                            {'type': 'array', 'items': _user_id,
                             'minItems': 1}],
                  'description': 'a user ID'}


def resources(*gone):
    """The resources of Nova's quota sets without those of ``gone``."""
    out = list(quota.RESOURCES)
    for group in gone:
        out = [r for r in out if r not in group]
    return out


ALL = resources()
V2_36 = resources(quota.NETWORK)
V2_57 = resources(quota.NETWORK, quota.PERSONALITY)


def _update(names):
    properties = dict.fromkeys(names, validation.quota_limit)
    properties['force'] = validation.boolean
    return {
        'type': 'object',
        'properties': {'quota_set': {
            'type': 'object', 'properties': properties,
            'additionalProperties': False}},
        'required': ['quota_set'],
        'additionalProperties': False,
    }


UPDATE = _update(ALL)
UPDATE_V2_36 = _update(V2_36)
UPDATE_V2_57 = _update(V2_57)

# user_id: the quotas of one user of the project. Before 2.75 Nova
# ignores the parameters it does not know; from 2.75 it refuses them.
QUERY = {
    'type': 'object',
    'properties': {'user_id': _user_id_query},
    'additionalProperties': True,
}
QUERY_V2_75 = dict(QUERY, additionalProperties=False)
# The defaults take no parameter (Nova refuses unknown ones from 2.102).
DEFAULTS_QUERY = validation.IGNORED_QUERY


# Responses ------------------------------------------------------------------

_limit = {'type': 'integer', 'minimum': -1}
_detail = rt.obj({'in_use': _limit, 'limit': _limit, 'reserved': _limit})


def quota_set(names, value=_limit, with_id=True):
    properties = dict.fromkeys(names, value)
    if with_id:
        properties['id'] = {'type': 'string'}
    return rt.wrapped('quota_set', rt.obj(properties))


def by_version(value=_limit, with_id=True, wrap=quota_set):
    """The windows (tether.api.response_types.by_version) of an answer
    with every resource of its microversion."""
    return rt.by_version(
        wrap(ALL, value, with_id),
        (versions.NETWORK_QUOTAS_REMOVED, wrap(V2_36, value, with_id)),
        (versions.PERSONALITY_QUOTAS_REMOVED, wrap(V2_57, value, with_id)))


SHOW_RESPONSES = by_version()
DETAIL_RESPONSES = by_version(_detail)
DEFAULTS_RESPONSES = by_version()
# As Nova since v2: an update's answer has no id.
UPDATE_RESPONSES = by_version(with_id=False)
