"""Policy rules for volume attachments."""

from tether.policies import base

CREATE = 'volume:attachment_create'
UPDATE = 'volume:attachment_update'
DELETE = 'volume:attachment_delete'
COMPLETE = 'volume:attachment_complete'
MULTIATTACH_BOOTABLE = 'volume:multiattach_bootable_volume'
# tether's own: Cinder checks only the project on reads (any
# authenticated caller sees its own project's attachments). tether asks
# for a reader of the project, an administrator or the service role: a
# token with none of those roles is no persona of the project.
GET = 'volume:attachment_get'
GET_ALL = 'volume:attachment_get_all'
CONNECTION_INFO = 'volume:attachment_connection_info'

_C = '/attachments'
_A = _C + '/{attachment_id}'

rules = [
    base.rule(CREATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Create an attachment: reserve a volume, and connect it when '
              'a connector is given.', [('POST', _C)]),
    base.rule(UPDATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Connect a reserved attachment (give its connector).',
              [('PUT', _A)]),
    base.rule(DELETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete (detach) an attachment. An attachment in use by an '
              'instance is further guarded (OSSA-2023-003).',
              [('DELETE', _A)]),
    base.rule(COMPLETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Mark an attachment attached (os-complete, 3.44).',
              [('POST', _A + '/action')]),
    base.rule(MULTIATTACH_BOOTABLE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Attach a bootable multiattach volume that is already in '
              'use.', [('POST', _C)]),
    base.rule(GET, base.READER_OR_SERVICE,
              'Show an attachment of the caller\'s project. Cinder checks '
              'no rule here; tether refuses a token that has none of the '
              'roles reader, admin or service.', [('GET', _A)]),
    base.rule(GET_ALL, base.READER_OR_SERVICE,
              'List the attachments of the caller\'s project (of every '
              'project for an administrator with all_tenants). Cinder '
              'checks no rule here; tether refuses a token that has none '
              'of the roles reader, admin or service.',
              [('GET', _C), ('GET', _C + '/detail')]),
    base.rule(CONNECTION_INFO, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Show connection_info and the connector in attachment '
              'responses (readers see neither).',
              [('GET', _A), ('GET', _C + '/detail'), ('POST', _C),
               ('PUT', _A)]),
]


def list_rules():
    return rules
