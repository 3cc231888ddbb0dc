"""Schemas of /os-services: the list query."""

_NAME = {'type': 'string', 'maxLength': 255}

LIST_QUERY = {
    'type': 'object',
    'properties': {'host': _NAME, 'binary': _NAME},
    'additionalProperties': False,
}
