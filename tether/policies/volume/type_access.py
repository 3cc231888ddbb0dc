"""Policy rules of private volume types' access lists."""

from tether.policies import base

ADD_PROJECT = 'volume_extension:volume_type_access:addProjectAccess'
REMOVE_PROJECT = 'volume_extension:volume_type_access:removeProjectAccess'
GET_ALL_FOR_TYPE = 'volume_extension:volume_type_access:get_all_for_type'

_T = '/types/{type_id}'

rules = [
    base.rule(ADD_PROJECT, base.RULE_ADMIN_API,
              'Let a project use a private volume type (addProjectAccess).',
              [('POST', _T + '/action')]),
    base.rule(REMOVE_PROJECT, base.RULE_ADMIN_API,
              'Take a project\'s access to a private volume type away '
              '(removeProjectAccess).', [('POST', _T + '/action')]),
    base.rule(GET_ALL_FOR_TYPE, base.RULE_ADMIN_API,
              'List the projects that may use a private volume type.',
              [('GET', _T + '/os-volume-type-access')]),
]


def list_rules():
    return rules
