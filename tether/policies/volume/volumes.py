"""Policy rules for volumes and their actions."""

from tether.policies import base

CREATE = 'volume:create'
GET = 'volume:get'
GET_ALL = 'volume:get_all'
UPDATE = 'volume:update'
DELETE = 'volume:delete'
EXTEND = 'volume:extend'
EXTEND_ATTACHED = 'volume:extend_attached_volume'
RESET_STATUS = 'volume_extension:volume_admin_actions:reset_status'
EXTEND_COMPLETION = ('volume_extension:volume_admin_actions:'
                     'extend_volume_completion')
HOST_ATTRIBUTE = 'volume_extension:volume_host_attribute'
TENANT_ATTRIBUTE = 'volume_extension:volume_tenant_attribute'
MIG_STATUS_ATTRIBUTE = 'volume_extension:volume_mig_status_attribute'
GET_METADATA = 'volume:get_volume_metadata'
CREATE_METADATA = 'volume:create_volume_metadata'
UPDATE_METADATA = 'volume:update_volume_metadata'
DELETE_METADATA = 'volume:delete_volume_metadata'
SUMMARY = 'volume:get_volume_summary'

_V = '/volumes/{volume_id}'
_A = _V + '/action'

rules = [
    base.rule(CREATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER, 'Create a volume.',
              [('POST', '/volumes')]),
    base.rule(GET, base.SYSTEM_ADMIN_OR_PROJECT_READER, 'Show a volume.',
              [('GET', _V)]),
    base.rule(GET_ALL, base.SYSTEM_ADMIN_OR_PROJECT_READER, 'List volumes.',
              [('GET', '/volumes'), ('GET', '/volumes/detail')]),
    base.rule(UPDATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Update a volume\'s name or description.', [('PUT', _V)]),
    base.rule(DELETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER, 'Delete a volume.',
              [('DELETE', _V)]),
    base.rule(EXTEND, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Extend a volume (os-extend).', [('POST', _A)]),
    base.rule(EXTEND_ATTACHED, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Extend an attached volume; operators disable online extend '
              'here.', [('POST', _A)]),
    base.rule(EXTEND_COMPLETION, base.RULE_SERVICE_OR_ADMIN,
              'Complete an extend that waited for the compute host '
              '(os-extend_volume_completion; the compute service calls it). '
              'Cinder allows administrators only; tether also the service '
              'role, which the compute service\'s user has.',
              [('POST', _A)]),
    base.rule(RESET_STATUS, base.RULE_ADMIN_API,
              'Reset the status of a volume (os-reset_status).',
              [('POST', _A)]),
    base.rule(HOST_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show os-vol-host-attr:host in volume responses.',
              [('GET', _V), ('GET', '/volumes/detail')]),
    base.rule(TENANT_ATTRIBUTE, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show os-vol-tenant-attr:tenant_id in volume responses.',
              [('GET', _V), ('GET', '/volumes/detail')]),
    base.rule(MIG_STATUS_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show os-vol-mig-status-attr:* in volume responses.',
              [('GET', _V), ('GET', '/volumes/detail')]),
    base.rule(GET_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show a volume\'s metadata.',
              [('GET', _V + '/metadata'), ('GET', _V + '/metadata/{key}')]),
    base.rule(CREATE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Add metadata to a volume.', [('POST', _V + '/metadata')]),
    base.rule(UPDATE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Replace a volume\'s metadata or one key.',
              [('PUT', _V + '/metadata'), ('PUT', _V + '/metadata/{key}')]),
    base.rule(DELETE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete a key of a volume\'s metadata.',
              [('DELETE', _V + '/metadata/{key}')]),
    base.rule(SUMMARY, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Count and total size of the volumes (3.12).',
              [('GET', '/volumes/summary')]),
]


def list_rules():
    return rules
