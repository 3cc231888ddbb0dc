"""Policy rules of /os-quota-class-sets (Nova's names and defaults):
administrators only."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-quota-class-sets:%s'
SHOW = PREFIX % 'show'
UPDATE = PREFIX % 'update'

_Q = '/os-quota-class-sets/{quota_class}'

rules = [
    base.rule(SHOW, base.ADMIN, 'Show the limits of a quota class.',
              [('GET', _Q)]),
    base.rule(UPDATE, base.ADMIN, 'Set limits of a quota class.',
              [('PUT', _Q)]),
]


def list_rules():
    return rules
