"""Policy rules for the extra specs of volume types."""

from tether.policies import base

INDEX = 'volume_extension:types_extra_specs:index'
SHOW = 'volume_extension:types_extra_specs:show'
CREATE = 'volume_extension:types_extra_specs:create'
UPDATE = 'volume_extension:types_extra_specs:update'
DELETE = 'volume_extension:types_extra_specs:delete'
READ_SENSITIVE = 'volume_extension:types_extra_specs:read_sensitive'

_S = '/types/{type_id}/extra_specs'
_K = _S + '/{extra_spec_key}'

rules = [
    base.rule(INDEX, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'List the extra specs of a volume type.', [('GET', _S)]),
    base.rule(SHOW, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show one extra spec of a volume type.', [('GET', _K)]),
    base.rule(CREATE, base.RULE_ADMIN_API,
              'Add or replace extra specs of a volume type.',
              [('POST', _S)]),
    base.rule(UPDATE, base.RULE_ADMIN_API,
              'Replace one extra spec of a volume type.', [('PUT', _K)]),
    base.rule(DELETE, base.RULE_ADMIN_API,
              'Delete one extra spec of a volume type.', [('DELETE', _K)]),
    base.rule(READ_SENSITIVE, base.RULE_ADMIN_API,
              'See every extra spec, not only the user visible ones '
              '(multiattach, replication_enabled, '
              'RESKEY:availability_zones), wherever extra specs are shown.',
              [('GET', '/types'), ('GET', '/types/{type_id}'),
               ('GET', _S), ('GET', _K)]),
]


def list_rules():
    return rules
