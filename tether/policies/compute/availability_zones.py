"""Policy rules of /os-availability-zone (Nova's names and defaults)."""

from tether.policies.compute import base

LIST = 'os_compute_api:os-availability-zone:list'
DETAIL = 'os_compute_api:os-availability-zone:detail'

# Nova lets any authenticated caller list the zone names.
ANYONE = '@'

rules = [
    base.rule(LIST, ANYONE,
              'List the availability zones of the compute hosts.',
              [('GET', '/os-availability-zone')]),
    base.rule(DETAIL, base.ADMIN,
              'List the availability zones with their hosts and the '
              'state of their services.',
              [('GET', '/os-availability-zone/detail')]),
]


def list_rules():
    return rules
