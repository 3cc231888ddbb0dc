"""Policy rules of generic volume groups and their actions (Cinder's
names and defaults)."""

from tether.policies import base

CREATE = 'group:create'
UPDATE = 'group:update'
GET = 'group:get'
GET_ALL = 'group:get_all'
DELETE = 'group:delete'
RESET_STATUS = 'group:reset_status'
PROJECT_ATTRIBUTE = 'group:group_project_attribute'

_G = '/groups/{group_id}'

rules = [
    base.rule(GET_ALL, base.SYSTEM_ADMIN_OR_PROJECT_READER, 'List groups.',
              [('GET', '/groups'), ('GET', '/groups/detail')]),
    base.rule(CREATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Create a group, or a group from a group snapshot or a group '
              '(create-from-src).',
              [('POST', '/groups'), ('POST', '/groups/action')]),
    base.rule(GET, base.SYSTEM_ADMIN_OR_PROJECT_READER, 'Show a group.',
              [('GET', _G)]),
    base.rule(UPDATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Update a group (name, description, volumes added and '
              'removed).', [('PUT', _G)]),
    base.rule(DELETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete a group (action delete).', [('POST', _G + '/action')]),
    base.rule(RESET_STATUS, base.RULE_ADMIN_API,
              'Reset the status of a group (action reset_status).',
              [('POST', _G + '/action')]),
    base.rule(PROJECT_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show project_id in group responses (3.58).',
              [('GET', _G), ('GET', '/groups/detail')]),
]


def list_rules():
    return rules
