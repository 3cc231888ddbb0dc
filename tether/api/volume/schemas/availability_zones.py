"""Schemas of /os-availability-zone: the list query (none)."""

LIST_QUERY = {'type': 'object', 'properties': {},
              'additionalProperties': False}
