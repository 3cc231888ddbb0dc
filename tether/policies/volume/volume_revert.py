"""Policy rule of the revert of a volume to its latest snapshot."""

from tether.policies import base

REVERT = 'volume:revert_to_snapshot'

rules = [
    base.rule(REVERT, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Revert a volume to its latest snapshot (revert, 3.40).',
              [('POST', '/volumes/{volume_id}/action')]),
]


def list_rules():
    return rules
