"""Policy rules of private volume types' access lists."""

from tether.policies import base

ADD_PROJECT = 'volume_extension:volume_type_access:addProjectAccess'
REMOVE_PROJECT = 'volume_extension:volume_type_access:removeProjectAccess'
GET_ALL_FOR_TYPE = 'volume_extension:volume_type_access:get_all_for_type'
IS_PUBLIC_ATTRIBUTE = 'volume_extension:volume_type_access'

_T = '/types/{type_id}'

rules = [
    base.rule(IS_PUBLIC_ATTRIBUTE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Show os-volume-type-access:is_public in volume type '
              'responses (Cinder\'s default: members, not readers).',
              [('GET', _T), ('GET', '/types'), ('POST', '/types')]),
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
