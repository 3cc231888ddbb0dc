"""Policy rules for project quotas (os-quota-sets)."""

from tether.policies import base

SHOW = 'volume_extension:quotas:show'
UPDATE = 'volume_extension:quotas:update'
DELETE = 'volume_extension:quotas:delete'

_Q = '/os-quota-sets/{project_id}'

rules = [
    base.rule(SHOW, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show the quota of a project, its usage or the defaults. The '
              'target project is the one in the URL.',
              [('GET', _Q), ('GET', _Q + '?usage=True'),
               ('GET', _Q + '/defaults')]),
    base.rule(UPDATE, base.RULE_ADMIN_API, 'Set limits of a project.',
              [('PUT', _Q)]),
    base.rule(DELETE, base.RULE_ADMIN_API,
              'Forget the limits of a project (back to the defaults).',
              [('DELETE', _Q)]),
]


def list_rules():
    return rules
