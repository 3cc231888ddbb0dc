"""Policy rule of the compute API's /extensions (Nova's name and
default: anyone)."""

from tether.policies.compute import base

BASE = 'os_compute_api:extensions'

rules = [
    base.rule(BASE, '@', 'List available extensions and show information '
                         'for an extension by alias',
              [('GET', '/extensions'), ('GET', '/extensions/{alias}')]),
]


def list_rules():
    return rules
