"""JSON schemas of /os-server-groups: create, the list and show queries,
and what each answers, per microversion (Nova's)."""

import copy

from tether.api.compute.schemas import servers
from tether.api.compute import versions
from tether.api import response_types as rt
from tether.api import validation
from tether.objects import fields

_HARD = list(fields.ServerGroupPolicy.HARD)
_ALL = list(fields.ServerGroupPolicy.ALL)


def _create(properties, required):
    return {
        'type': 'object',
        'properties': {'server_group': {
            'type': 'object', 'properties': properties,
            'required': required, 'additionalProperties': False}},
        'required': ['server_group'], 'additionalProperties': False,
    }


def _policies(names):
    # One policy, in a list (before 2.64).
    return {'type': 'array', 'minItems': 1, 'maxItems': 1,
            'items': {'type': 'string', 'enum': names},
            'description': 'a list of one policy: %s' % ', '.join(names)}


CREATE = _create({'name': servers.name, 'policies': _policies(_HARD)},
                 ['name', 'policies'])
CREATE_V2_15 = _create({'name': servers.name, 'policies': _policies(_ALL)},
                       ['name', 'policies'])
CREATE_V2_64 = _create({
    'name': servers.name,
    'policy': {'type': 'string', 'enum': _ALL,
               'description': 'one of %s' % ', '.join(_ALL)},
    'rules': {'type': 'object',
              'properties': {
                  'max_server_per_host': validation.positive_integer},
              'additionalProperties': False},
}, ['name', 'policy'])

# Nova ignores unknown query parameters until 2.75 and lists query values
# given twice; tether reads the first.
_integer = {'anyOf': [validation.non_negative_integer_string,
                      {'type': 'array', 'minItems': 1,
                       'items': validation.non_negative_integer_string}],
            'description': 'a non-negative integer'}
LIST_QUERY = {
    'type': 'object',
    'properties': {
        'all_projects': {'type': ['string', 'array'],
                         'items': {'type': 'string'}},
        'limit': _integer,
        'offset': _integer,
    },
    'additionalProperties': True,
}
LIST_QUERY_V2_75 = dict(copy.deepcopy(LIST_QUERY),
                        additionalProperties=False)
SHOW_QUERY = validation.IGNORED_QUERY


# Responses ------------------------------------------------------------------

_group = rt.obj({
    'id': rt.uuid,
    'name': {'type': 'string'},
    # Tempest's schema: any policy name (a soft one made at 2.15 is shown
    # at every version, as Nova shows it).
    'policies': {'type': 'array', 'items': {'type': 'string', 'enum': _ALL},
                 'maxItems': 1},
    'members': {'type': 'array', 'items': rt.uuid},
    'metadata': rt.obj({}),
})
_group_v2_13 = rt.extended(_group, {
    'project_id': {'type': 'string'},
    'user_id': {'type': 'string'},
}, ['project_id', 'user_id'])
_group_v2_64 = rt.obj({
    'id': rt.uuid,
    'name': {'type': 'string'},
    'policy': {'type': 'string', 'enum': _ALL},
    'rules': rt.obj({'max_server_per_host': {'type': 'integer'}},
                    required=[]),
    'members': {'type': 'array', 'items': rt.uuid},
    'project_id': {'type': 'string'},
    'user_id': {'type': 'string'},
})


def _windows(wrap):
    return rt.by_version(
        wrap(_group),
        (versions.SERVER_GROUP_OWNER, wrap(_group_v2_13)),
        (versions.SERVER_GROUP_POLICY, wrap(_group_v2_64)))


def _one(group):
    return rt.wrapped('server_group', group)


def _list(group):
    return rt.obj({'server_groups': {'type': 'array', 'items': group}})


ONE_RESPONSES = _windows(_one)
LIST_RESPONSES = _windows(_list)
