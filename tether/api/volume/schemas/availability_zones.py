"""Schemas of /os-availability-zone: the list query (none), and the
list."""

from tether.api import response_types as rt

LIST_QUERY = {'type': 'object', 'properties': {},
              'additionalProperties': False}


# Responses ------------------------------------------------------------------

LIST_RESPONSE = rt.wrapped('availabilityZoneInfo', {
    'type': 'array',
    'items': rt.obj({
        'zoneName': {'type': 'string'},
        'zoneState': rt.obj({'available': {'type': 'boolean'}}),
    }),
})
