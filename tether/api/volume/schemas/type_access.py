"""Schemas of private volume types' access lists: addProjectAccess and
removeProjectAccess (POST /types/{id}/action), the list's query."""

from tether.api.volume.schemas import types

_PROJECT = {
    'type': 'object',
    'properties': {
        'project': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    },
    'required': ['project'],
    'additionalProperties': False,
}


def _action(name):
    return {
        'type': 'object',
        'properties': {name: _PROJECT},
        'required': [name],
        'additionalProperties': False,
    }


ADD_PROJECT_ACCESS = _action('addProjectAccess')
REMOVE_PROJECT_ACCESS = _action('removeProjectAccess')

NO_QUERY = types.NO_QUERY
