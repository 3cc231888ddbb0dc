"""JSON schemas of /os-assisted-volume-snapshots: the create's body, the
delete's query and its ``delete_info`` (JSON in the query, as Cinder's
remotefs drivers send it), and the responses."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v

# A file beside the volume's files, as the volume service names it: a
# plain file name (the host joins it to the directory of the disk's
# file), never a path.
file_name = {
    'description': 'a file name (no "/"), not "." or ".."',
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    'pattern': '^[^/\\x00]+$', 'not': {'enum': ['.', '..']},
}

CREATE = {
    'type': 'object',
    'properties': {
        'snapshot': {
            'type': 'object',
            'properties': {
                'volume_id': v.uuid,
                'create_info': {
                    'type': 'object',
                    'properties': {
                        'snapshot_id': v.uuid,
                        'type': {'type': 'string', 'enum': ['qcow2']},
                        'new_file': file_name,
                        'id': v.uuid,
                    },
                    'required': ['snapshot_id', 'type', 'new_file'],
                    'additionalProperties': False,
                },
            },
            'required': ['volume_id', 'create_info'],
            'additionalProperties': False,
        },
    },
    'required': ['snapshot'],
    'additionalProperties': False,
}

# The query: delete_info, a JSON text (DELETE_INFO; without it, a 400
# after the policy check, as Nova). Unknown keys are ignored before 2.75
# and refused from it, as Nova does.
DELETE_QUERY = {
    'type': 'object',
    'properties': {'delete_info': {'type': 'string', 'maxLength': 4096}},
    'additionalProperties': True,
}
DELETE_QUERY_V2_75 = copy.deepcopy(DELETE_QUERY)
DELETE_QUERY_V2_75['additionalProperties'] = False

DELETE_INFO = {
    'type': 'object',
    'properties': {
        'volume_id': v.uuid,
        'type': {'type': 'string', 'enum': ['qcow2']},
        'file_to_merge': {'oneOf': [file_name, {'type': 'null'}]},
        'merge_target_file': {'oneOf': [file_name, {'type': 'null'}]},
    },
    'required': ['volume_id', 'type', 'file_to_merge', 'merge_target_file'],
    'additionalProperties': False,
}

CREATE_RESPONSE = rt.wrapped('snapshot', rt.obj({
    'id': rt.uuid_or_null,
    'volumeId': rt.uuid,
}))
