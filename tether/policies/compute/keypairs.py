"""Policy rules of /os-keypairs (Nova's names and defaults): a user's
own key pairs, or an administrator's for any user."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-keypairs:%s'
INDEX = PREFIX % 'index'
CREATE = PREFIX % 'create'
SHOW = PREFIX % 'show'
DELETE = PREFIX % 'delete'

# The target is the user whose key pairs they are ({'user_id': ...}).
ADMIN_OR_OWNER = '(%s) or user_id:%%(user_id)s' % base.ADMIN

rules = [
    base.rule(INDEX, ADMIN_OR_OWNER, 'List the key pairs of a user.',
              [('GET', '/os-keypairs')]),
    base.rule(CREATE, ADMIN_OR_OWNER,
              'Create or import a key pair of a user.',
              [('POST', '/os-keypairs')]),
    base.rule(SHOW, ADMIN_OR_OWNER, 'Show a key pair of a user.',
              [('GET', '/os-keypairs/{keypair_name}')]),
    base.rule(DELETE, ADMIN_OR_OWNER, 'Delete a key pair of a user.',
              [('DELETE', '/os-keypairs/{keypair_name}')]),
]


def list_rules():
    return rules
