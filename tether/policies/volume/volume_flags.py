"""Policy rules of a volume's flags (os-update_readonly_flag; the
bootable flag is a volume update: volume:update, as in Cinder)."""

from tether.policies import base

UPDATE_READONLY = 'volume:update_readonly_flag'

_A = '/volumes/{volume_id}/action'

rules = [
    base.rule(UPDATE_READONLY, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Update a volume\'s readonly flag (os-update_readonly_flag).',
              [('POST', _A)]),
]


def list_rules():
    return rules
