"""Policy rules of group snapshots and their action (Cinder's names and
defaults)."""

from tether.policies import base

CREATE = 'group:create_group_snapshot'
DELETE = 'group:delete_group_snapshot'
GET = 'group:get_group_snapshot'
GET_ALL = 'group:get_all_group_snapshots'
RESET_STATUS = 'group:reset_group_snapshot_status'
PROJECT_ATTRIBUTE = 'group:group_snapshot_project_attribute'

_GS = '/group_snapshots/{group_snapshot_id}'

rules = [
    base.rule(GET_ALL, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'List group snapshots.',
              [('GET', '/group_snapshots'),
               ('GET', '/group_snapshots/detail')]),
    base.rule(CREATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Create a group snapshot.', [('POST', '/group_snapshots')]),
    base.rule(GET, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show a group snapshot.', [('GET', _GS)]),
    base.rule(DELETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete a group snapshot.', [('DELETE', _GS)]),
    base.rule(RESET_STATUS, base.RULE_ADMIN_API,
              'Reset the status of a group snapshot (action '
              'reset_status).', [('POST', _GS + '/action')]),
    base.rule(PROJECT_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show project_id in group snapshot responses (3.58).',
              [('GET', _GS), ('GET', '/group_snapshots/detail')]),
]


def list_rules():
    return rules
