"""Policy rules of /os-hypervisors (administrators)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-hypervisors:%s'
LIST = PREFIX % 'list'
LIST_DETAIL = PREFIX % 'list-detail'
SHOW = PREFIX % 'show'

rules = [
    base.rule(LIST, base.ADMIN, 'List the hypervisors.',
              [('GET', '/os-hypervisors')]),
    base.rule(LIST_DETAIL, base.ADMIN,
              'List the hypervisors with their details.',
              [('GET', '/os-hypervisors/detail')]),
    base.rule(SHOW, base.ADMIN, 'Show a hypervisor.',
              [('GET', '/os-hypervisors/{hypervisor_id}')]),
]


def list_rules():
    return rules
