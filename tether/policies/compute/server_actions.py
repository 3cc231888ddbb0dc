"""Policy rules of the actions of a server: the power actions and
rebuild (Nova's names and defaults)."""

from tether.policies.compute import base
from tether.policies.compute import servers

START = servers.PREFIX % 'start'
STOP = servers.PREFIX % 'stop'
REBOOT = servers.PREFIX % 'reboot'
REBUILD = servers.PREFIX % 'rebuild'

rules = [
    base.rule(START, base.PROJECT_MEMBER_OR_ADMIN, 'Start a server.',
              [('POST', '/servers/{server_id}/action (os-start)')]),
    base.rule(STOP, base.PROJECT_MEMBER_OR_ADMIN, 'Stop a server.',
              [('POST', '/servers/{server_id}/action (os-stop)')]),
    base.rule(REBOOT, base.PROJECT_MEMBER_OR_ADMIN, 'Reboot a server.',
              [('POST', '/servers/{server_id}/action (reboot)')]),
    base.rule(REBUILD, base.PROJECT_MEMBER_OR_ADMIN,
              'Rebuild a server: a new image on its root disk, or on its '
              'root volume (2.93).',
              [('POST', '/servers/{server_id}/action (rebuild)')]),
]


def list_rules():
    return rules
