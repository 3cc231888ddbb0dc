"""Policy rules of /servers/{server_id}/os-volume_attachments."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-volumes-attachments:%s'
INDEX = PREFIX % 'index'
SHOW = PREFIX % 'show'
CREATE = PREFIX % 'create'
DELETE = PREFIX % 'delete'

_PATH = '/servers/{server_id}/os-volume_attachments'

rules = [
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN,
              'List the volumes attached to a server.', [('GET', _PATH)]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show a volume attachment of a server.',
              [('GET', _PATH + '/{volume_id}')]),
    base.rule(CREATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Attach a volume to a server.', [('POST', _PATH)]),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN,
              'Detach a volume from a server.',
              [('DELETE', _PATH + '/{volume_id}')]),
]


def list_rules():
    return rules
