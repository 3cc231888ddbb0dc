"""Policy rules of projects' default volume types (Cinder's names and
defaults: administrators only)."""

from tether.policies import base

SET = 'volume_extension:default_set_or_update'
GET = 'volume_extension:default_get'
GET_ALL = 'volume_extension:default_get_all'
UNSET = 'volume_extension:default_unset'

_P = '/default-types/{project_id}'

rules = [
    base.rule(SET, base.RULE_ADMIN_API,
              'Set or change a project\'s default volume type.',
              [('PUT', _P)]),
    base.rule(GET, base.RULE_ADMIN_API,
              'Show a project\'s default volume type.', [('GET', _P)]),
    base.rule(GET_ALL, base.RULE_ADMIN_API,
              'List every project\'s default volume type. WARNING: '
              'changing this might open up too much information about the '
              'cloud\'s projects.', [('GET', '/default-types')]),
    base.rule(UNSET, base.RULE_ADMIN_API,
              'Unset a project\'s default volume type.', [('DELETE', _P)]),
]


def list_rules():
    return rules
