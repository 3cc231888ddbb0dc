"""Policy rules of QoS specs (Cinder's names and defaults)."""

from tether.policies import base

CREATE = 'volume_extension:qos_specs_manage:create'
GET = 'volume_extension:qos_specs_manage:get'
GET_ALL = 'volume_extension:qos_specs_manage:get_all'
UPDATE = 'volume_extension:qos_specs_manage:update'
DELETE = 'volume_extension:qos_specs_manage:delete'

_P = '/qos-specs/{qos_id}'

rules = [
    base.rule(GET_ALL, base.RULE_ADMIN_API,
              'List QoS specs, or the volume types of one.',
              [('GET', '/qos-specs'), ('GET', _P + '/associations')]),
    base.rule(GET, base.RULE_ADMIN_API, 'Show one QoS specs.',
              [('GET', _P)]),
    base.rule(CREATE, base.RULE_ADMIN_API, 'Create QoS specs.',
              [('POST', '/qos-specs')]),
    base.rule(UPDATE, base.RULE_ADMIN_API,
              'Set keys of QoS specs; associate them with volume types or '
              'disassociate them.',
              [('PUT', _P), ('GET', _P + '/disassociate_all'),
               ('GET', _P + '/associate'), ('GET', _P + '/disassociate')]),
    base.rule(DELETE, base.RULE_ADMIN_API,
              'Delete QoS specs, or keys of them.',
              [('DELETE', _P), ('PUT', _P + '/delete_keys')]),
]


def list_rules():
    return rules
