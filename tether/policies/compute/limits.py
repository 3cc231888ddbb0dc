"""Policy rules of the compute API's /limits (Nova's names and
defaults): anyone sees the limits of their project; administrators
those of another (``tenant_id``)."""

from tether.policies.compute import base

LIMITS = 'os_compute_api:limits'
OTHER_PROJECT = 'os_compute_api:limits:other_project'
ANYONE = '@'

rules = [
    base.rule(LIMITS, ANYONE,
              'Show the absolute limits of the caller\'s project.',
              [('GET', '/limits')]),
    base.rule(OTHER_PROJECT, base.ADMIN,
              'Show the absolute limits of another project (tenant_id); '
              'checked after os_compute_api:limits.',
              [('GET', '/limits')]),
]


def list_rules():
    return rules
