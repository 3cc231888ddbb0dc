"""Policy rules of /os-aggregates (Nova's names and defaults): host
aggregates are administrators' alone."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-aggregates:%s'
SET_METADATA = PREFIX % 'set_metadata'
ADD_HOST = PREFIX % 'add_host'
CREATE = PREFIX % 'create'
REMOVE_HOST = PREFIX % 'remove_host'
UPDATE = PREFIX % 'update'
INDEX = PREFIX % 'index'
DELETE = PREFIX % 'delete'
SHOW = PREFIX % 'show'

_ACTION = '/os-aggregates/{aggregate_id}/action (%s)'

rules = [
    base.rule(SET_METADATA, base.ADMIN,
              'Create or replace metadata for an aggregate',
              [('POST', _ACTION % 'set_metadata')]),
    base.rule(ADD_HOST, base.ADMIN, 'Add a host to an aggregate',
              [('POST', _ACTION % 'add_host')]),
    base.rule(CREATE, base.ADMIN, 'Create an aggregate',
              [('POST', '/os-aggregates')]),
    base.rule(REMOVE_HOST, base.ADMIN, 'Remove a host from an aggregate',
              [('POST', _ACTION % 'remove_host')]),
    base.rule(UPDATE, base.ADMIN, 'Update name and/or availability zone',
              [('PUT', '/os-aggregates/{aggregate_id}')]),
    base.rule(INDEX, base.ADMIN, 'List all aggregates',
              [('GET', '/os-aggregates')]),
    base.rule(DELETE, base.ADMIN, 'Delete an aggregate',
              [('DELETE', '/os-aggregates/{aggregate_id}')]),
    base.rule(SHOW, base.ADMIN, 'Show details for an aggregate',
              [('GET', '/os-aggregates/{aggregate_id}')]),
]


def list_rules():
    return rules
