"""JSON schemas of /os-availability-zone: the list queries (none)."""

# Nova takes no query parameters here and ignores any.
LIST_QUERY = {'type': 'object', 'properties': {},
              'additionalProperties': True}
