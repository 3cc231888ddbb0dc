"""Policy rules of the access lists of private flavors (Nova's names and
defaults): administrators only."""

from tether.policies.compute import base

BASE = 'os_compute_api:os-flavor-access'
ADD = BASE + ':add_tenant_access'
REMOVE = BASE + ':remove_tenant_access'

rules = [
    base.rule(ADD, base.ADMIN, 'Give a project access to a private flavor.',
              [('POST', '/flavors/{flavor_id}/action (addTenantAccess)')]),
    base.rule(REMOVE, base.ADMIN,
              'Take away the access of a project to a private flavor.',
              [('POST',
                '/flavors/{flavor_id}/action (removeTenantAccess)')]),
    base.rule(BASE, base.ADMIN,
              'List the projects that have access to a private flavor.',
              [('GET', '/flavors/{flavor_id}/os-flavor-access')]),
]


def list_rules():
    return rules
