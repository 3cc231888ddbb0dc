"""Schemas of /extensions: its query (none)."""

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}
