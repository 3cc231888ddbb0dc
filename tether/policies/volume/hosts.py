"""Policy rule of the volume hosts (os-hosts; Cinder's name and default)."""

from tether.policies import base

MANAGE = 'volume_extension:hosts'

rules = [
    base.rule(MANAGE, base.RULE_ADMIN_API,
              'List the volume hosts, or show what one holds.',
              [('GET', '/os-hosts'), ('GET', '/os-hosts/{host_name}')]),
]


def list_rules():
    return rules
