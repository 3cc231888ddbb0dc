"""Policy rules of the server actions suspend and resume (Nova's names
and defaults)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-suspend-server:%s'
SUSPEND = PREFIX % 'suspend'
RESUME = PREFIX % 'resume'

rules = [
    base.rule(SUSPEND, base.PROJECT_MEMBER_OR_ADMIN,
              'Suspend a server: its memory saved on its host, its guest '
              'off.',
              [('POST', '/servers/{server_id}/action (suspend)')]),
    base.rule(RESUME, base.PROJECT_MEMBER_OR_ADMIN,
              'Resume a suspended server from its saved memory.',
              [('POST', '/servers/{server_id}/action (resume)')]),
]


def list_rules():
    return rules
