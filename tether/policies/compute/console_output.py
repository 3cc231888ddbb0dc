"""Policy rule of a server's console output (os-getConsoleOutput), Nova's
name and default."""

from tether.policies.compute import base

BASE = 'os_compute_api:os-console-output'

rules = [
    base.rule(BASE, base.PROJECT_MEMBER_OR_ADMIN,
              'Show console output for a server.',
              [('POST', '/servers/{server_id}/action (os-getConsoleOutput)')]),
]


def list_rules():
    return rules
