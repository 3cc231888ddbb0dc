"""Policy rules of /servers/{server_id}/shares (Nova's names and
defaults), and the rule that shows a mapping's export location."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-server-shares:%s'
INDEX = PREFIX % 'index'
CREATE = PREFIX % 'create'
SHOW = PREFIX % 'show'
DELETE = PREFIX % 'delete'
# Nova shows these to admins (context.is_admin in its view); tether names
# a rule for it, admin by default.
SHOW_EXPORT_LOCATION = PREFIX % 'show:export_location'

_PATH = '/servers/{server_id}/shares'

rules = [
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN,
              'List the shares attached to a server (2.97).',
              [('GET', _PATH)]),
    base.rule(CREATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Attach a share to a server (2.97).', [('POST', _PATH)]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show a share attached to a server (2.97).',
              [('GET', _PATH + '/{share_id}')]),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN,
              'Detach a share from a server (2.97).',
              [('DELETE', _PATH + '/{share_id}')]),
    base.rule(SHOW_EXPORT_LOCATION, base.ADMIN,
              'Show where a share attached to a server is (its export '
              'location) and the ID of its attachment (the mapping\'s '
              '"uuid").',
              [('GET', _PATH + '/{share_id}'), ('POST', _PATH)]),
]


def list_rules():
    return rules
