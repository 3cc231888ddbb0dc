"""Policy rules of /os-hypervisors (administrators)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-hypervisors:%s'
LIST = PREFIX % 'list'
LIST_DETAIL = PREFIX % 'list-detail'
SHOW = PREFIX % 'show'
STATISTICS = PREFIX % 'statistics'
UPTIME = PREFIX % 'uptime'
SEARCH = PREFIX % 'search'
SERVERS = PREFIX % 'servers'

rules = [
    base.rule(LIST, base.ADMIN, 'List the hypervisors.',
              [('GET', '/os-hypervisors')]),
    base.rule(LIST_DETAIL, base.ADMIN,
              'List the hypervisors with their details.',
              [('GET', '/os-hypervisors/detail')]),
    base.rule(SHOW, base.ADMIN, 'Show a hypervisor.',
              [('GET', '/os-hypervisors/{hypervisor_id}')]),
    base.rule(STATISTICS, base.ADMIN,
              'Show the capacity and usage of all hypervisors together '
              '(microversions 2.1 to 2.87).',
              [('GET', '/os-hypervisors/statistics')]),
    base.rule(UPTIME, base.ADMIN,
              'Show the uptime of a hypervisor\'s host (microversions 2.1 '
              'to 2.87; from 2.88 it is in the hypervisor itself).',
              [('GET', '/os-hypervisors/{hypervisor_id}/uptime')]),
    base.rule(SEARCH, base.ADMIN,
              'Find the hypervisors whose host name contains a pattern '
              '(microversions 2.1 to 2.52).',
              [('GET', '/os-hypervisors/{hypervisor_hostname_pattern}'
                       '/search')]),
    base.rule(SERVERS, base.ADMIN,
              'List the servers of the hypervisors whose host name '
              'contains a pattern (microversions 2.1 to 2.52).',
              [('GET', '/os-hypervisors/{hypervisor_hostname_pattern}'
                       '/servers')]),
]


def list_rules():
    return rules
