"""Policy rules of the actions on a volume (os-extend, the completion,
os-reset_status)."""

from tether.policies import base

EXTEND = 'volume:extend'
EXTEND_ATTACHED = 'volume:extend_attached_volume'
RESET_STATUS = 'volume_extension:volume_admin_actions:reset_status'
EXTEND_COMPLETION = ('volume_extension:volume_admin_actions:'
                     'extend_volume_completion')

_A = '/volumes/{volume_id}/action'

rules = [
    base.rule(EXTEND, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Extend a volume (os-extend).', [('POST', _A)]),
    base.rule(EXTEND_ATTACHED, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Extend an attached volume; operators disable online extend '
              'here.', [('POST', _A)]),
    base.rule(RESET_STATUS, base.RULE_ADMIN_API,
              'Reset the status of a volume (os-reset_status).',
              [('POST', _A)]),
    base.rule(EXTEND_COMPLETION, base.RULE_SERVICE_OR_ADMIN,
              'Complete an extend that waited for the compute host '
              '(os-extend_volume_completion; the compute service calls it). '
              'Cinder allows administrators only; tether also the service '
              'role, which the compute service\'s user has.',
              [('POST', _A)]),
]


def list_rules():
    return rules
