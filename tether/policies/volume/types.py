"""Policy rules for volume types."""

from tether.policies import base

MANAGE = 'volume_extension:types_manage'
GET = 'volume_extension:type_get'
GET_ALL = 'volume_extension:type_get_all'
EXTRA_SPECS_ATTRIBUTE = 'volume_extension:access_types_extra_specs'
QOS_SPECS_ID_ATTRIBUTE = 'volume_extension:access_types_qos_specs_id'

_T = '/types/{type_id}'

rules = [
    base.rule(MANAGE, base.RULE_ADMIN_API,
              'Create, update and delete a volume type.',
              [('POST', '/types'), ('PUT', _T), ('DELETE', _T)]),
    base.rule(GET, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show a volume type, or the default one.',
              [('GET', _T), ('GET', '/types/default')]),
    base.rule(GET_ALL, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'List volume types.', [('GET', '/types')]),
    base.rule(EXTRA_SPECS_ATTRIBUTE, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show extra_specs in volume type responses (only the user '
              'visible keys without types_extra_specs:read_sensitive).',
              [('GET', _T), ('GET', '/types')]),
    base.rule(QOS_SPECS_ID_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show qos_specs_id in volume type responses.',
              [('GET', _T), ('GET', '/types')]),
]


def list_rules():
    return rules
