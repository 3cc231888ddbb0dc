"""Schemas of /os-hosts: the list query, and the answers."""

from tether.api import response_types as rt

LIST_QUERY = {
    'type': 'object',
    'properties': {'zone': {'type': 'string', 'maxLength': 255}},
    'additionalProperties': False,
}
NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}

_host = rt.obj({
    'host_name': {'type': 'string'},
    'service': {'type': 'string'},
    'zone': rt.string_or_null,
    'service-status': {'type': 'string',
                       'enum': ['available', 'unavailable']},
    'service-state': {'type': 'string', 'enum': ['enabled', 'disabled']},
    'last-update': rt.date_time_or_null,
})
LIST_RESPONSE = rt.wrapped('hosts', {'type': 'array', 'items': _host})

# Counts and GiB as strings, as Cinder answers them.
_resource = rt.obj({key: {'type': 'string'} for key in (
    'host', 'project', 'volume_count', 'total_volume_gb', 'snapshot_count',
    'total_snapshot_gb')})
SHOW_RESPONSE = rt.wrapped('host', {
    'type': 'array', 'items': rt.wrapped('resource', _resource)})
