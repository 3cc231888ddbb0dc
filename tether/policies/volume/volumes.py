"""Policy rules for volumes and their actions."""

from tether.policies import base

CREATE = 'volume:create'
GET = 'volume:get'
GET_ALL = 'volume:get_all'
UPDATE = 'volume:update'
DELETE = 'volume:delete'
FORCE_DELETE = 'volume:force_delete'
HOST_ATTRIBUTE = 'volume_extension:volume_host_attribute'
TENANT_ATTRIBUTE = 'volume_extension:volume_tenant_attribute'
MIG_STATUS_ATTRIBUTE = 'volume_extension:volume_mig_status_attribute'
SUMMARY = 'volume:get_volume_summary'
# tether's own name: Cinder decides this in its view (an administrator,
# or a caller with the service role), with no rule.
ATTACHMENT_HOST_NAME = 'volume_extension:volume_attachment_host_name'

_V = '/volumes/{volume_id}'

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
    base.rule(FORCE_DELETE, base.RULE_ADMIN_API,
              'Delete a volume whatever its status (DELETE with '
              '?force=true, from microversion 3.23).', [('DELETE', _V)]),
    base.rule(HOST_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show os-vol-host-attr:host in volume responses.',
              [('GET', _V), ('GET', '/volumes/detail')]),
    base.rule(TENANT_ATTRIBUTE, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show os-vol-tenant-attr:tenant_id in volume responses.',
              [('GET', _V), ('GET', '/volumes/detail')]),
    base.rule(MIG_STATUS_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show os-vol-mig-status-attr:* in volume responses.',
              [('GET', _V), ('GET', '/volumes/detail')]),
    base.rule(ATTACHMENT_HOST_NAME, base.RULE_SERVICE_OR_ADMIN,
              'Show the host_name of each entry of a volume\'s '
              '"attachments" (null for others), as Cinder shows it to '
              'administrators and to services only: the image service '
              'reads it to detach a multiattach volume, users have no '
              'use for the name of a compute host.',
              [('GET', _V), ('GET', '/volumes/detail')]),
    base.rule(SUMMARY, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Count and total size of the volumes (3.12).',
              [('GET', '/volumes/summary')]),
]


def list_rules():
    return rules
