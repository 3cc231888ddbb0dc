"""Policy rules of /servers/{server_id}/os-volume_attachments."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-volumes-attachments:%s'
INDEX = PREFIX % 'index'
SHOW = PREFIX % 'show'
CREATE = PREFIX % 'create'
UPDATE = PREFIX % 'update'
SWAP = PREFIX % 'swap'
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
    base.rule(UPDATE, base.PROJECT_MEMBER_OR_ADMIN,
              "Update a volume attachment (from 2.85: its "
              "delete_on_termination). A request that also swaps the "
              "volume is checked against the swap rule only, which is "
              "expected to allow no less than this one.",
              [('PUT', _PATH + '/{volume_id}')]),
    base.rule(SWAP, base.SERVICE_ROLE,
              'Swap the volume of an attachment for another (what the '
              'volume service asks during a volume migration; every PUT '
              'before 2.85).', [('PUT', _PATH + '/{volume_id}')]),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN,
              'Detach a volume from a server.',
              [('DELETE', _PATH + '/{volume_id}')]),
]


def list_rules():
    return rules
