"""Policy rules of what the backends report (Cinder's names and
defaults): their pools and a backend's capabilities."""

from tether.policies import base

GET_POOLS = 'scheduler_extension:scheduler_stats:get_pools'
CAPABILITIES = 'volume_extension:capabilities'

rules = [
    base.rule(GET_POOLS, base.RULE_ADMIN_API,
              'List the pools of the volume backends.',
              [('GET', '/scheduler-stats/get_pools')]),
    base.rule(CAPABILITIES, base.RULE_ADMIN_API,
              'Show the capabilities of a volume backend.',
              [('GET', '/capabilities/{host_name}')]),
]


def list_rules():
    return rules
