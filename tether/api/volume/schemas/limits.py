"""Schemas of /limits: the query string."""

_PROJECT = {'type': 'string', 'minLength': 1, 'maxLength': 255}

# project_id (and the older tenant_id) is honoured for admins from 3.39;
# below that, or for anyone else, it is ignored as Cinder ignores it.
LIST_QUERY = {
    'type': 'object',
    'properties': {'project_id': _PROJECT, 'tenant_id': _PROJECT},
    'additionalProperties': False,
}
