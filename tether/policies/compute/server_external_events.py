"""Policy rules of /os-server-external-events (other services only)."""

from tether.policies.compute import base

CREATE = 'os_compute_api:os-server-external-events:create'

rules = [
    base.rule(CREATE, base.SERVICE_ROLE,
              'Post events about servers (volume-extended, ...); meant '
              'for other services such as the volume service.',
              [('POST', '/os-server-external-events')]),
]


def list_rules():
    return rules
