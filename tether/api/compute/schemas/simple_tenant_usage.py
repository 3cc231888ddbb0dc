"""JSON schemas of /os-simple-tenant-usage: the list and show queries
and what each answers, per microversion (Nova's)."""

import copy

from tether.api.compute import versions
from tether.api import response_types as rt
from tether.api import validation

# Nova reads the first value of a parameter given twice.
_text = {'type': ['string', 'array'], 'items': {'type': 'string'},
         'description': 'a time as %Y-%m-%dT%H:%M:%S, with or without '
                        'fractions of a second'}
_flag = {'type': ['string', 'array'], 'items': {'type': 'string'},
         'description': '"1" (or another true boolean) for the usage of '
                        'each server'}
_paging = {
    'limit': {'anyOf': [validation.non_negative_integer_string,
                        {'type': 'array', 'minItems': 1,
                         'items': validation.non_negative_integer_string}],
              'description': 'a non-negative integer'},
    'marker': {'anyOf': [{'type': 'string', 'maxLength': 255},
                         {'type': 'array', 'minItems': 1,
                          'items': {'type': 'string', 'maxLength': 255}}],
               'description': 'the instance_id of the last server usage of '
                              'the page before'},
}

SHOW_QUERY = {'type': 'object',
              'properties': {'start': _text, 'end': _text},
              'additionalProperties': True}
LIST_QUERY = copy.deepcopy(SHOW_QUERY)
LIST_QUERY['properties']['detailed'] = _flag
SHOW_QUERY_V2_40 = copy.deepcopy(SHOW_QUERY)
SHOW_QUERY_V2_40['properties'].update(_paging)
LIST_QUERY_V2_40 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V2_40['properties'].update(_paging)
SHOW_QUERY_V2_75 = dict(SHOW_QUERY_V2_40, additionalProperties=False)
LIST_QUERY_V2_75 = dict(LIST_QUERY_V2_40, additionalProperties=False)


# Responses ------------------------------------------------------------------

_STATES = ['active', 'building', 'error', 'paused', 'rescued', 'resized',
           'shelved', 'shelved_offloaded', 'stopped', 'suspended',
           'terminated']
_server_usage = rt.obj({
    'ended_at': rt.date_time_or_null,
    'flavor': {'type': 'string'},
    'hours': {'type': 'number'},
    'instance_id': rt.uuid,
    'local_gb': {'type': 'integer', 'minimum': 0},
    'memory_mb': {'type': 'integer', 'minimum': 1},
    'name': {'type': 'string'},
    'started_at': rt.date_time,
    'state': {'type': 'string', 'enum': _STATES},
    'tenant_id': {'type': 'string'},
    'uptime': {'type': 'integer', 'minimum': 0},
    'vcpus': {'type': 'integer', 'minimum': 1},
})
_usage = rt.obj({
    'server_usages': {'type': 'array', 'items': _server_usage},
    'start': rt.date_time,
    'stop': rt.date_time,
    'tenant_id': {'type': 'string'},
    'total_hours': {'type': 'number', 'minimum': 0},
    'total_local_gb_usage': {'type': 'number', 'minimum': 0},
    'total_memory_mb_usage': {'type': 'number', 'minimum': 0},
    'total_vcpus_usage': {'type': 'number', 'minimum': 0},
}, required=['start', 'stop', 'tenant_id', 'total_hours',
             'total_local_gb_usage', 'total_memory_mb_usage',
             'total_vcpus_usage'])
# A project's usage always lists its servers; one without any is {}.
_project_usage = {'oneOf': [
    rt.extended(_usage, {}, ['server_usages']), rt.obj({})]}

LIST_RESPONSES = rt.by_version(
    rt.obj({'tenant_usages': {'type': 'array', 'items': _usage}}),
    (versions.USAGE_PAGING, rt.obj(
        {'tenant_usages': {'type': 'array', 'items': _usage},
         'tenant_usages_links': rt.links}, required=['tenant_usages'])))
SHOW_RESPONSES = rt.by_version(
    rt.obj({'tenant_usage': _project_usage}),
    (versions.USAGE_PAGING, rt.obj(
        {'tenant_usage': _project_usage, 'tenant_usage_links': rt.links},
        required=['tenant_usage'])))
