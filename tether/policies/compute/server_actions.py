"""Policy rules of the power actions of a server (Nova's names and
defaults)."""

from tether.policies.compute import base
from tether.policies.compute import servers

START = servers.PREFIX % 'start'
STOP = servers.PREFIX % 'stop'
REBOOT = servers.PREFIX % 'reboot'

rules = [
    base.rule(START, base.PROJECT_MEMBER_OR_ADMIN, 'Start a server.',
              [('POST', '/servers/{server_id}/action (os-start)')]),
    base.rule(STOP, base.PROJECT_MEMBER_OR_ADMIN, 'Stop a server.',
              [('POST', '/servers/{server_id}/action (os-stop)')]),
    base.rule(REBOOT, base.PROJECT_MEMBER_OR_ADMIN, 'Reboot a server.',
              [('POST', '/servers/{server_id}/action (reboot)')]),
]


def list_rules():
    return rules
