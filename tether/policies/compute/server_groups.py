"""Policy rules of /os-server-groups (Nova's names and defaults): a
project's groups, read by its readers and changed by its members; every
project's listed by administrators."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-server-groups:%s'
CREATE = PREFIX % 'create'
DELETE = PREFIX % 'delete'
INDEX = PREFIX % 'index'
INDEX_ALL_PROJECTS = PREFIX % 'index:all_projects'
SHOW = PREFIX % 'show'

rules = [
    base.rule(CREATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Create a new server group',
              [('POST', '/os-server-groups')]),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN,
              'Delete a server group',
              [('DELETE', '/os-server-groups/{server_group_id}')]),
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN,
              'List all server groups',
              [('GET', '/os-server-groups')]),
    base.rule(INDEX_ALL_PROJECTS, base.ADMIN,
              'List all server groups for all projects',
              [('GET', '/os-server-groups')]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show details of a server group',
              [('GET', '/os-server-groups/{server_group_id}')]),
]


def list_rules():
    return rules
