"""Policy rules of /os-simple-tenant-usage (Nova's names and defaults):
a project's usage for its readers, every project's for
administrators."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-simple-tenant-usage:%s'
SHOW = PREFIX % 'show'
LIST = PREFIX % 'list'

rules = [
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show usage statistics for a specific tenant',
              [('GET', '/os-simple-tenant-usage/{tenant_id}')]),
    base.rule(LIST, base.ADMIN, 'List per tenant usage statistics for all '
                                'tenants',
              [('GET', '/os-simple-tenant-usage')]),
]


def list_rules():
    return rules
