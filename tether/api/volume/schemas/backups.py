"""Schemas of /backups: create, update, restore, import, the list
queries, the administrators' actions, and the answers."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v
from tether.api.volume import versions
from tether.api.volume.schemas import listing
from tether.objects import fields

_name = v.string(nullable=True)
# Cinder's metadata_allows_null (its extra specs' shape, or null).
_metadata = {'oneOf': [v.metadata, {'type': 'null'}]}

CREATE = {
    'type': 'object',
    'properties': {
        'backup': {
            'type': 'object',
            'properties': {
                'volume_id': v.uuid,
                'container': v.string(nullable=True),
                'description': v.string(nullable=True),
                'incremental': v.boolean,
                'force': v.boolean,
                'name': _name,
                'snapshot_id': {'oneOf': [v.uuid, {'type': 'null'}]},
            },
            'required': ['volume_id'],
            'additionalProperties': False,
        },
    },
    'required': ['backup'],
    'additionalProperties': False,
}

CREATE_V3_43 = copy.deepcopy(CREATE)
CREATE_V3_43['properties']['backup']['properties']['metadata'] = _metadata

CREATE_V3_51 = copy.deepcopy(CREATE_V3_43)
CREATE_V3_51['properties']['backup']['properties']['availability_zone'] = \
    v.string(nullable=True)

UPDATE = {
    'type': 'object',
    'properties': {
        'backup': {
            'type': ['object', 'null'],
            'properties': {
                'name': _name,
                'description': v.string(nullable=True),
            },
            'additionalProperties': False,
        },
    },
    'required': ['backup'],
    'additionalProperties': False,
}

UPDATE_V3_43 = copy.deepcopy(UPDATE)
UPDATE_V3_43['properties']['backup']['properties']['metadata'] = v.metadata

RESTORE = {
    'type': 'object',
    'properties': {
        'restore': {
            'type': ['object', 'null'],
            'properties': {
                'name': _name,
                'volume_id': {'oneOf': [v.uuid, {'type': 'null'}]},
            },
            'additionalProperties': False,
        },
    },
    'required': ['restore'],
    'additionalProperties': False,
}

IMPORT_RECORD = {
    'type': 'object',
    'properties': {
        'backup-record': {
            'type': 'object',
            'properties': {
                'backup_service': v.string(),
                'backup_url': {'type': 'string', 'minLength': 1,
                               'maxLength': 65535, 'format': 'base64'},
            },
            'required': ['backup_service', 'backup_url'],
            'additionalProperties': False,
        },
    },
    'required': ['backup-record'],
    'additionalProperties': False,
}

LIST_QUERY = listing.list_query(name=listing.STRING, status=listing.STRING,
                                volume_id=listing.STRING)
LIST_QUERY_V3_45 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V3_45['properties']['with_count'] = v.boolean

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}

RESET_STATUS = v.action('os-reset_status', {
    'type': 'object',
    'properties': {
        'status': {'type': 'string',
                   'enum': list(fields.BackupStatus.RESETTABLE)},
    },
    'required': ['status'],
    'additionalProperties': False,
})

FORCE_DELETE = v.action('os-force_delete', {
    'type': ['object', 'null'],
    'properties': {},
    'additionalProperties': False,
})


# Responses ------------------------------------------------------------------

# A create, an update, an import and a list without details.
_summary = rt.obj({'id': rt.uuid, 'name': rt.string_or_null,
                   'links': rt.links})
# A show and a list with details (Tempest's common_show_backup).
_detail = rt.obj({
    'id': rt.uuid,
    'status': {'type': 'string', 'enum': list(fields.BackupStatus.ALL)},
    'size': {'type': 'integer'},
    'object_count': {'type': 'integer'},
    'availability_zone': rt.string_or_null,
    'container': rt.string_or_null,
    'created_at': rt.date_time,
    'updated_at': rt.date_time_or_null,
    'name': rt.string_or_null,
    'description': rt.string_or_null,
    'fail_reason': rt.string_or_null,
    'volume_id': rt.uuid,
    'links': rt.links,
    'is_incremental': {'type': 'boolean'},
    'has_dependent_backups': {'type': 'boolean'},
    'snapshot_id': rt.uuid_or_null,
    'data_timestamp': rt.date_time_or_null,
})
# Shown from their versions to whoever the policy lets see them.
_DETAIL_STEPS = (
    (versions.BACKUP_PROJECT,
     {'os-backup-project-attr:project_id': {'type': 'string'}}, []),
    (versions.BACKUP_METADATA, {'metadata': rt.string_map}, ['metadata']),
    (versions.BACKUP_USER_ID, {'user_id': rt.string_or_null}, []),
)


def _one(backup):
    return rt.wrapped('backup', backup)


def _list(backup):
    return rt.obj({'backups': {'type': 'array', 'items': backup},
                   'backups_links': rt.links}, required=['backups'])


SUMMARY_RESPONSES = rt.growing(_summary, _one)
SHOW_RESPONSES = rt.growing(_detail, _one, _DETAIL_STEPS)
LIST_RESPONSES = rt.growing(_summary, _list, (), [listing.COUNT_STEP])
LIST_DETAIL_RESPONSES = rt.growing(_detail, _list, _DETAIL_STEPS,
                                   [listing.COUNT_STEP])
RESTORE_RESPONSE = rt.wrapped('restore', rt.obj({
    'backup_id': rt.uuid,
    'volume_id': rt.uuid,
    # A volume without a name has none (Tempest's schema asks for text:
    # its restores are into volumes made for them, which have one).
    'volume_name': rt.string_or_null,
}))
EXPORT_RESPONSE = rt.wrapped('backup-record', rt.obj({
    'backup_service': {'type': 'string'},
    'backup_url': {'type': 'string'},
}))
