"""JSON schemas of /os-availability-zone: the list queries (none)."""

from tether.api import response_types as rt
from tether.api import validation

# Nova takes no query parameters here and ignores any.
LIST_QUERY = validation.IGNORED_QUERY


# Responses ------------------------------------------------------------------

# {host: {service binary: state}} of a zone's enabled services.
_hosts = {
    'type': 'object',
    'additionalProperties': {
        'type': 'object',
        'additionalProperties': rt.obj({
            'available': {'type': 'boolean'},
            'active': {'type': 'boolean'},
            'updated_at': rt.date_time_or_null,
        }),
    },
}


def _zones(hosts):
    return rt.wrapped('availabilityZoneInfo', {
        'type': 'array',
        'items': rt.obj({
            'zoneName': {'type': 'string'},
            'zoneState': rt.obj({'available': {'type': 'boolean'}}),
            'hosts': hosts,
        }),
    })


LIST_RESPONSE = _zones({'type': 'null'})
# The hosts of an available zone; null for one that is not.
DETAIL_RESPONSE = _zones({'anyOf': [{'type': 'null'}, _hosts]})
