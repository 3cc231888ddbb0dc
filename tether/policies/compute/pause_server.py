"""Policy rules of the server actions pause and unpause (Nova's names and
defaults)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-pause-server:%s'
PAUSE = PREFIX % 'pause'
UNPAUSE = PREFIX % 'unpause'

rules = [
    base.rule(PAUSE, base.PROJECT_MEMBER_OR_ADMIN,
              'Pause a server: its vCPUs stop, its memory stays.',
              [('POST', '/servers/{server_id}/action (pause)')]),
    base.rule(UNPAUSE, base.PROJECT_MEMBER_OR_ADMIN,
              'Unpause a paused server.',
              [('POST', '/servers/{server_id}/action (unpause)')]),
]


def list_rules():
    return rules
