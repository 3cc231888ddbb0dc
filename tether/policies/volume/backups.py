"""Policy rules of volume backups and their administrators' actions
(Cinder's names and defaults)."""

from tether.policies import base

GET_ALL = 'backup:get_all'
GET = 'backup:get'
CREATE = 'backup:create'
UPDATE = 'backup:update'
DELETE = 'backup:delete'
RESTORE = 'backup:restore'
IMPORT = 'backup:backup-import'
EXPORT = 'backup:export-import'
PROJECT_ATTRIBUTE = 'backup:backup_project_attribute'
RESET_STATUS = 'volume_extension:backup_admin_actions:reset_status'
FORCE_DELETE = 'volume_extension:backup_admin_actions:force_delete'

_B = '/backups/{backup_id}'

rules = [
    base.rule(GET_ALL, base.SYSTEM_ADMIN_OR_PROJECT_READER, 'List backups.',
              [('GET', '/backups'), ('GET', '/backups/detail')]),
    base.rule(PROJECT_ATTRIBUTE, base.RULE_ADMIN_API,
              'Show a backup\'s project (os-backup-project-attr:'
              'project_id, 3.18) and user (user_id, 3.56).',
              [('GET', _B), ('GET', '/backups/detail')]),
    base.rule(CREATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Create a backup of a volume.', [('POST', '/backups')]),
    base.rule(GET, base.SYSTEM_ADMIN_OR_PROJECT_READER, 'Show a backup.',
              [('GET', _B)]),
    base.rule(UPDATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Update a backup\'s name, description or metadata.',
              [('PUT', _B)]),
    base.rule(DELETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete a backup.', [('DELETE', _B)]),
    base.rule(RESTORE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Restore a backup into a volume (a new one, or one of the '
              'project).', [('POST', _B + '/restore')]),
    base.rule(IMPORT, base.RULE_ADMIN_API,
              'Import a backup record (POST /backups/import_record).',
              [('POST', '/backups/import_record')]),
    base.rule(EXPORT, base.RULE_ADMIN_API,
              'Export a backup\'s record.',
              [('GET', _B + '/export_record')]),
    base.rule(RESET_STATUS, base.RULE_ADMIN_API,
              'Reset the status of a backup (os-reset_status).',
              [('POST', _B + '/action')]),
    base.rule(FORCE_DELETE, base.RULE_ADMIN_API,
              'Delete a backup whatever its status (os-force_delete).',
              [('POST', _B + '/action')]),
]


def list_rules():
    return rules
