"""Policy rules of /os-volumes, the proxy to the volume API's volumes
(to 2.35; Nova's names and defaults). The volume API checks its own rules
too: the proxy calls it with the caller's token."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-volumes:%s'
LIST = PREFIX % 'list'
DETAIL = PREFIX % 'detail'
SHOW = PREFIX % 'show'
CREATE = PREFIX % 'create'
DELETE = PREFIX % 'delete'

_PROXY = ' A proxy to the volume API, to microversion 2.35.'

rules = [
    base.rule(LIST, base.PROJECT_READER_OR_ADMIN, 'List volumes.' + _PROXY,
              [('GET', '/os-volumes')]),
    base.rule(DETAIL, base.PROJECT_READER_OR_ADMIN,
              'List volumes in detail.' + _PROXY,
              [('GET', '/os-volumes/detail')]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN, 'Show a volume.' + _PROXY,
              [('GET', '/os-volumes/{volume_id}')]),
    base.rule(CREATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Create a volume.' + _PROXY, [('POST', '/os-volumes')]),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN,
              'Delete a volume.' + _PROXY,
              [('DELETE', '/os-volumes/{volume_id}')]),
]


def list_rules():
    return rules
