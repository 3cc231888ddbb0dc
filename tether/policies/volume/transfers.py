"""Policy rules of volume transfers (Cinder's names and defaults)."""

from tether.policies import base

CREATE = 'volume:create_transfer'
ACCEPT = 'volume:accept_transfer'
DELETE = 'volume:delete_transfer'
GET = 'volume:get_transfer'
GET_ALL = 'volume:get_all_transfers'

_PATHS = ('/os-volume-transfer', '/volume-transfers')


def _each(method, suffix=''):
    return [(method, path + suffix) for path in _PATHS]


rules = [
    base.rule(GET_ALL, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'List volume transfers.',
              _each('GET') + _each('GET', '/detail')),
    base.rule(CREATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Create a volume transfer (of a volume of the project).',
              _each('POST')),
    base.rule(GET, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show one volume transfer.', _each('GET', '/{transfer_id}')),
    base.rule(ACCEPT, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Accept a volume transfer (into the caller\'s project, with '
              'the transfer\'s key).',
              _each('POST', '/{transfer_id}/accept')),
    base.rule(DELETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete (cancel) a volume transfer.',
              _each('DELETE', '/{transfer_id}')),
]


def list_rules():
    return rules
