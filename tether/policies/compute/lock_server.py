"""Policy rules of the server actions lock and unlock (Nova's names and
defaults)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-lock-server:%s'
LOCK = PREFIX % 'lock'
UNLOCK = PREFIX % 'unlock'
UNLOCK_OVERRIDE = PREFIX % 'unlock:unlock_override'

rules = [
    base.rule(LOCK, base.PROJECT_MEMBER_OR_ADMIN,
              'Lock a server: users who are not admins cannot act on it '
              'until it is unlocked.',
              [('POST', '/servers/{server_id}/action (lock)')]),
    base.rule(UNLOCK, base.PROJECT_MEMBER_OR_ADMIN, 'Unlock a server.',
              [('POST', '/servers/{server_id}/action (unlock)')]),
    base.rule(UNLOCK_OVERRIDE, base.ADMIN,
              'Unlock a server that someone else locked: a lock of its '
              'project\'s users by an admin, or an admin\'s by a user of '
              'its project.',
              [('POST', '/servers/{server_id}/action (unlock)')]),
]


def list_rules():
    return rules
