"""Policy rules of the administrators' volume actions (os-force_delete)."""

from tether.policies import base

FORCE_DELETE = 'volume_extension:volume_admin_actions:force_delete'

_A = '/volumes/{volume_id}/action'

rules = [
    base.rule(FORCE_DELETE, base.RULE_ADMIN_API,
              'Delete a volume whatever its status (os-force_delete); an '
              'attached volume, one with snapshots or in a group is '
              'refused still.', [('POST', _A)]),
]


def list_rules():
    return rules
