"""Policy rules of /os-quota-sets (Nova's names and defaults): a
project's readers see its quotas, anyone the defaults, administrators
set and revert them. The target is the project of the URL."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-quota-sets:%s'
SHOW = PREFIX % 'show'
DETAIL = PREFIX % 'detail'
DEFAULTS = PREFIX % 'defaults'
UPDATE = PREFIX % 'update'
DELETE = PREFIX % 'delete'
ANYONE = '@'

_Q = '/os-quota-sets/{tenant_id}'

rules = [
    base.rule(UPDATE, base.ADMIN,
              'Set limits of a project, or of a user of it (user_id).',
              [('PUT', _Q)]),
    base.rule(DEFAULTS, ANYONE, 'Show the default limits.',
              [('GET', _Q + '/defaults')]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show the limits of a project, or of a user of it.',
              [('GET', _Q)]),
    base.rule(DELETE, base.ADMIN,
              'Revert the limits of a project (and of its users), or of '
              'a user of it, to the defaults.',
              [('DELETE', _Q)]),
    base.rule(DETAIL, base.PROJECT_READER_OR_ADMIN,
              'Show the limits of a project, or of a user of it, with '
              'what is in use.',
              [('GET', _Q + '/detail')]),
]


def list_rules():
    return rules
