"""Policy rules for the service list (os-services)."""

from tether.policies import base

INDEX = 'volume_extension:services:index'

rules = [
    base.rule(INDEX, base.RULE_ADMIN_API,
              'List the volume services, their state and zone.',
              [('GET', '/os-services')]),
]


def list_rules():
    return rules
