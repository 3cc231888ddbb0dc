"""Policy rules of /servers/{server_id}/metadata (Nova's names and
defaults): the project's readers see it, its members change it."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:server-metadata:%s'
INDEX = PREFIX % 'index'
SHOW = PREFIX % 'show'
CREATE = PREFIX % 'create'
UPDATE_ALL = PREFIX % 'update_all'
UPDATE = PREFIX % 'update'
DELETE = PREFIX % 'delete'

_ONE = '/servers/{server_id}/metadata/{key}'
_ALL = '/servers/{server_id}/metadata'

rules = [
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN,
              'List the metadata of a server.', [('GET', _ALL)]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show one metadata item of a server.', [('GET', _ONE)]),
    base.rule(CREATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Add or change metadata items of a server.',
              [('POST', _ALL)]),
    base.rule(UPDATE_ALL, base.PROJECT_MEMBER_OR_ADMIN,
              'Replace the metadata of a server.', [('PUT', _ALL)]),
    base.rule(UPDATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Set one metadata item of a server.', [('PUT', _ONE)]),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN,
              'Delete one metadata item of a server.', [('DELETE', _ONE)]),
]


def list_rules():
    return rules
