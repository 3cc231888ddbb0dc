"""Policy rules of /os-services: the compute services (administrators)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-services:%s'
LIST = PREFIX % 'list'
UPDATE = PREFIX % 'update'
DELETE = PREFIX % 'delete'

rules = [
    base.rule(LIST, base.ADMIN,
              'List the compute services, their state and zone.',
              [('GET', '/os-services')]),
    base.rule(UPDATE, base.ADMIN,
              'Enable, disable or force down a compute service (2.53).',
              [('PUT', '/os-services/{service_id}')]),
    base.rule(DELETE, base.ADMIN,
              'Delete the record of a compute service without servers.',
              [('DELETE', '/os-services/{service_id}')]),
]


def list_rules():
    return rules
