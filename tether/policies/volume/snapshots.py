"""Policy rules of snapshots, their metadata and their actions (Cinder's
names and defaults)."""

from tether.policies import base

CREATE = 'volume:create_snapshot'
GET = 'volume:get_snapshot'
GET_ALL = 'volume:get_all_snapshots'
UPDATE = 'volume:update_snapshot'
DELETE = 'volume:delete_snapshot'
EXTENDED_ATTRIBUTES = 'volume_extension:extended_snapshot_attributes'
RESET_STATUS = 'volume_extension:snapshot_admin_actions:reset_status'
FORCE_DELETE = 'volume_extension:snapshot_admin_actions:force_delete'
UPDATE_STATUS = 'snapshot_extension:snapshot_actions:update_snapshot_status'
GET_METADATA = 'volume:get_snapshot_metadata'
UPDATE_METADATA = 'volume:update_snapshot_metadata'
DELETE_METADATA = 'volume:delete_snapshot_metadata'

_S = '/snapshots/{snapshot_id}'

rules = [
    base.rule(CREATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Take a snapshot of a volume.', [('POST', '/snapshots')]),
    base.rule(GET, base.SYSTEM_ADMIN_OR_PROJECT_READER, 'Show a snapshot.',
              [('GET', _S)]),
    base.rule(GET_ALL, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'List snapshots.',
              [('GET', '/snapshots'), ('GET', '/snapshots/detail')]),
    base.rule(UPDATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Update a snapshot\'s name or description.', [('PUT', _S)]),
    base.rule(DELETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete a snapshot.', [('DELETE', _S)]),
    base.rule(EXTENDED_ATTRIBUTES, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show os-extended-snapshot-attributes:project_id and '
              ':progress in snapshot responses.',
              [('GET', _S), ('GET', '/snapshots/detail')]),
    base.rule(RESET_STATUS, base.RULE_ADMIN_API,
              'Reset the status of a snapshot (os-reset_status).',
              [('POST', _S + '/action')]),
    base.rule(FORCE_DELETE, base.RULE_ADMIN_API,
              'Delete a snapshot whatever its status (os-force_delete).',
              [('POST', _S + '/action')]),
    base.rule(UPDATE_STATUS, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Report the progress of a snapshot being taken or deleted '
              '(os-update_snapshot_status: what the compute service sends '
              'of the snapshots it takes for the volume service).',
              [('POST', _S + '/action')]),
    base.rule(GET_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show a snapshot\'s metadata.',
              [('GET', _S + '/metadata'), ('GET', _S + '/metadata/{key}')]),
    base.rule(UPDATE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Add to, replace, or change a key of a snapshot\'s metadata.',
              [('POST', _S + '/metadata'), ('PUT', _S + '/metadata'),
               ('PUT', _S + '/metadata/{key}')]),
    base.rule(DELETE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete a key of a snapshot\'s metadata.',
              [('DELETE', _S + '/metadata/{key}')]),
]


def list_rules():
    return rules
