"""Schemas of /scheduler-stats/get_pools and /capabilities/{host}."""

from tether.api import response_types as rt
from tether.api import validation as v

_STRING = {'type': 'string', 'minLength': 1, 'maxLength': 255}

POOLS_QUERY = {
    'type': 'object',
    'properties': {'detail': v.boolean},
    'additionalProperties': False,
}
POOLS_QUERY_V3_28 = {
    'type': 'object',
    'properties': {'detail': v.boolean, 'name': _STRING},
    'additionalProperties': False,
}
POOLS_QUERY_V3_35 = {
    'type': 'object',
    'properties': {'detail': v.boolean, 'name': _STRING,
                   'volume_type': _STRING},
    'additionalProperties': False,
}

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}


# Responses ------------------------------------------------------------------

_pool = {
    'type': 'object',
    'properties': {
        'name': {'type': 'string'},
        # What the backend reports of the pool (its own keys with its
        # backend's): a map, as Cinder's.
        'capabilities': {'type': 'object'},
    },
    'required': ['name'],
    'additionalProperties': False,
}
POOLS_RESPONSE = rt.wrapped('pools', {'type': 'array', 'items': _pool})

_property = rt.obj({'title': {'type': 'string'},
                    'description': {'type': 'string'},
                    'type': {'type': 'string'}})
CAPABILITIES_RESPONSE = rt.obj({
    'namespace': {'type': 'string',
                  'pattern': '^OS::Storage::Capabilities::.+$'},
    'vendor_name': rt.string_or_null,
    'volume_backend_name': rt.string_or_null,
    'pool_name': rt.string_or_null,
    'driver_version': rt.string_or_null,
    'storage_protocol': rt.string_or_null,
    'display_name': rt.string_or_null,
    'description': rt.string_or_null,
    'visibility': rt.string_or_null,
    'replication_targets': {'type': 'array'},
    'properties': {'type': 'object', 'additionalProperties': _property},
})
