"""Schemas of private volume types' access lists: addProjectAccess and
removeProjectAccess (POST /types/{id}/action), the list's query and
answer."""

from tether.api import response_types as rt
from tether.api import validation
from tether.api.volume.schemas import types

_PROJECT = {
    'type': 'object',
    'properties': {
        'project': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    },
    'required': ['project'],
    'additionalProperties': False,
}


ADD_PROJECT_ACCESS = validation.action('addProjectAccess', _PROJECT)
REMOVE_PROJECT_ACCESS = validation.action('removeProjectAccess', _PROJECT)

NO_QUERY = types.NO_QUERY


# Responses ------------------------------------------------------------------

# The projects that may use a private type.
LIST_RESPONSE = rt.wrapped('volume_type_access', {
    'type': 'array',
    'items': rt.obj({'volume_type_id': rt.uuid,
                     'project_id': {'type': 'string'}}),
})
