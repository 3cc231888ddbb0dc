"""Policy rules of group types and their group specs (Cinder's names
and defaults)."""

from tether.policies import base

CREATE = 'group:group_types:create'
UPDATE = 'group:group_types:update'
DELETE = 'group:group_types:delete'
GET = 'group:group_types:get'
GET_ALL = 'group:group_types:get_all'
SPECS_ATTRIBUTE = 'group:access_group_types_specs'
SPEC_GET = 'group:group_types_specs:get'
SPEC_GET_ALL = 'group:group_types_specs:get_all'
SPEC_CREATE = 'group:group_types_specs:create'
SPEC_UPDATE = 'group:group_types_specs:update'
SPEC_DELETE = 'group:group_types_specs:delete'

_T = '/group_types/{group_type_id}'
_SPECS = _T + '/group_specs'

rules = [
    base.rule(CREATE, base.RULE_ADMIN_API, 'Create a group type.',
              [('POST', '/group_types')]),
    base.rule(UPDATE, base.RULE_ADMIN_API, 'Update a group type.',
              [('PUT', _T)]),
    base.rule(DELETE, base.RULE_ADMIN_API, 'Delete a group type.',
              [('DELETE', _T)]),
    # Cinder checks no rule on these reads; tether names them so that
    # every operation has a documented default.
    base.rule(GET, base.READER_OR_SERVICE,
              'Show a group type, or the default one. Cinder checks no '
              'rule here; tether refuses a token that has none of the '
              'roles reader, admin or service.',
              [('GET', _T), ('GET', '/group_types/default')]),
    base.rule(GET_ALL, base.READER_OR_SERVICE,
              'List group types. Cinder checks no rule here; tether '
              'refuses a token that has none of the roles reader, admin '
              'or service.', [('GET', '/group_types')]),
    base.rule(SPECS_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show group_specs in group type responses.',
              [('GET', _T), ('GET', '/group_types')]),
    base.rule(SPEC_GET, base.RULE_ADMIN_API, 'Show a group type spec.',
              [('GET', _SPECS + '/{key}')]),
    base.rule(SPEC_GET_ALL, base.RULE_ADMIN_API, 'List group type specs.',
              [('GET', _SPECS)]),
    base.rule(SPEC_CREATE, base.RULE_ADMIN_API,
              'Create or update group type specs.', [('POST', _SPECS)]),
    base.rule(SPEC_UPDATE, base.RULE_ADMIN_API, 'Update a group type spec.',
              [('PUT', _SPECS + '/{key}')]),
    base.rule(SPEC_DELETE, base.RULE_ADMIN_API, 'Delete a group type spec.',
              [('DELETE', _SPECS + '/{key}')]),
]


def list_rules():
    return rules
