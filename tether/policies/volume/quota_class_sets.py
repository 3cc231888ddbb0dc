"""Policy rules of quota classes (os-quota-class-sets, Cinder's names and
defaults): administrators only."""

from tether.policies import base

GET = 'volume_extension:quota_classes:get'
UPDATE = 'volume_extension:quota_classes:update'

_Q = '/os-quota-class-sets/{class_name}'

rules = [
    base.rule(GET, base.RULE_ADMIN_API,
              'Show the limits of a quota class (default: every '
              'project\'s defaults).',
              [('GET', _Q)]),
    base.rule(UPDATE, base.RULE_ADMIN_API, 'Set limits of a quota class.',
              [('PUT', _Q)]),
]


def list_rules():
    return rules
