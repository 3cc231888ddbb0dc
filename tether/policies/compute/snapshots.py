"""Policy rules of /os-snapshots, the proxy to the volume API's snapshots
(to 2.35; Nova's names, under os-volumes, and defaults)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-volumes:snapshots:%s'
LIST = PREFIX % 'list'
DETAIL = PREFIX % 'detail'
SHOW = PREFIX % 'show'
CREATE = PREFIX % 'create'
DELETE = PREFIX % 'delete'

_PROXY = ' A proxy to the volume API, to microversion 2.35.'

rules = [
    base.rule(LIST, base.PROJECT_READER_OR_ADMIN,
              'List snapshots.' + _PROXY, [('GET', '/os-snapshots')]),
    base.rule(DETAIL, base.PROJECT_READER_OR_ADMIN,
              'List snapshots in detail.' + _PROXY,
              [('GET', '/os-snapshots/detail')]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show a snapshot.' + _PROXY,
              [('GET', '/os-snapshots/{snapshot_id}')]),
    base.rule(CREATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Create a snapshot.' + _PROXY, [('POST', '/os-snapshots')]),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN,
              'Delete a snapshot.' + _PROXY,
              [('DELETE', '/os-snapshots/{snapshot_id}')]),
]


def list_rules():
    return rules
