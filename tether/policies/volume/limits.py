"""Policy rules for the absolute limits (GET /limits)."""

from tether.policies import base

USED_LIMITS = 'limits_extension:used_limits'

rules = [
    base.rule(USED_LIMITS, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show what is used (totalVolumesUsed, totalGigabytesUsed) '
              'next to the limits; without it only the limits are shown.',
              [('GET', '/limits')]),
]


def list_rules():
    return rules
