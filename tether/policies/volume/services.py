"""Policy rules for the service list (os-services)."""

from tether.policies import base

INDEX = 'volume_extension:services:index'
UPDATE = 'volume_extension:services:update'
FREEZE = 'volume:freeze_host'
THAW = 'volume:thaw_host'

rules = [
    base.rule(INDEX, base.RULE_ADMIN_API,
              'List the volume services, their state and zone.',
              [('GET', '/os-services')]),
    base.rule(UPDATE, base.RULE_ADMIN_API,
              'Enable or disable a volume service (with a reason), freeze '
              'or thaw a backend.',
              [('PUT', '/os-services/{action}')]),
    base.rule(FREEZE, base.RULE_ADMIN_API,
              'Freeze a volume backend: nothing is placed on it, and its '
              'volumes and snapshots are not deleted, until it is thawed.',
              [('PUT', '/os-services/freeze')]),
    base.rule(THAW, base.RULE_ADMIN_API, 'Thaw a frozen volume backend.',
              [('PUT', '/os-services/thaw')]),
]


def list_rules():
    return rules
