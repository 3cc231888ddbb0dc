"""JSON schemas of /os-hypervisors: the list and show queries."""

from tether.api import response_types as rt
from tether.api import validation

# Before 2.53 Nova ignores query parameters it does not know; from 2.53
# it rejects them.
LIST_QUERY = validation.IGNORED_QUERY

_paging = {
    'limit': validation.non_negative_integer_string,
    'marker': {'type': 'string', 'maxLength': 255},
}

LIST_QUERY_V2_33 = {
    'type': 'object',
    'properties': dict(_paging),
    'additionalProperties': True,
}

LIST_QUERY_V2_53 = {
    'type': 'object',
    'properties': dict(_paging, **{
        'hypervisor_hostname_pattern': {
            'type': 'string', 'minLength': 1, 'maxLength': 255,
            'pattern': '^[a-zA-Z0-9-._]*$',
            'description': 'a part of a host name (letters, digits, "-", '
                           '"." and "_")',
        },
        'with_servers': validation.boolean,
    }),
    'additionalProperties': False,
}

SHOW_QUERY = validation.IGNORED_QUERY

SHOW_QUERY_V2_53 = {
    'type': 'object',
    'properties': {'with_servers': validation.boolean},
    'additionalProperties': False,
}


# Responses ------------------------------------------------------------------

# A hypervisor's ID: an integer before 2.53, a UUID from 2.53 (and so
# its service's).
_int_id = {'id': {'type': 'integer'}}
_uuid_id = {'id': rt.uuid}
_servers = {'type': 'array',
            'items': rt.obj({'name': {'type': 'string'},
                             'uuid': rt.uuid})}
# State and status are not required, as Tempest has them (Nova's
# os-hypervisor-status extension of old).
_basic = rt.obj(dict(_int_id, **{
    'hypervisor_hostname': {'type': 'string'},
    'state': {'type': 'string', 'enum': ['up', 'down']},
    'status': {'type': 'string', 'enum': ['enabled', 'disabled']},
}), required=['id', 'hypervisor_hostname'])
# The servers of each (the /servers route before 2.53, with_servers
# from 2.53): before 2.75 left out where there are none.
_basic_with_servers = rt.extended(_basic, {'servers': _servers})
_basic_v2_53 = rt.extended(_basic_with_servers, _uuid_id)


def _service(ids):
    return rt.obj(dict(ids, host={'type': 'string'},
                       disabled_reason=rt.string_or_null),
                  required=['id', 'host'])


_capacity = {key: {'type': 'integer'} for key in (
    'vcpus', 'memory_mb', 'local_gb', 'vcpus_used', 'memory_mb_used',
    'local_gb_used', 'running_vms', 'current_workload', 'free_ram_mb',
    'free_disk_gb')}
_capacity['disk_available_least'] = {'type': ['integer', 'null']}
_ip = {'anyOf': [{'type': 'null'},
                 {'type': 'string', 'format': 'ipv4'},
                 {'type': 'string', 'format': 'ipv6'}]}
_detail = rt.extended(_basic, dict(_capacity, **{
    'hypervisor_type': {'type': 'string'},
    'hypervisor_version': {'type': 'integer'},
    'host_ip': _ip,
    'service': _service(_int_id),
    # A JSON text before 2.28.
    'cpu_info': {'type': 'string'},
}), required=list(_capacity) + ['hypervisor_type', 'hypervisor_version',
                                'host_ip', 'service', 'cpu_info'])
_detail_v2_28 = rt.extended(_detail, {'cpu_info': {'type': 'object'}})
_detail_v2_53 = rt.extended(_detail_v2_28, dict(_uuid_id, **{
    'service': _service(_uuid_id), 'servers': _servers}))
# 2.88: no capacity nor cpu_info (Placement has them), and the uptime
# (null when the host has not reported it).
_detail_v2_88 = rt.obj(
    {k: v for k, v in _detail_v2_53['properties'].items()
     if k not in _capacity and k != 'cpu_info'},
    required=[k for k in _detail_v2_53['required']
              if k not in _capacity and k != 'cpu_info'])
_detail_v2_88 = rt.extended(_detail_v2_88, {'uptime': rt.string_or_null},
                            ['uptime'])


def _list(hypervisor, links=False):
    body = rt.wrapped('hypervisors', {'type': 'array', 'items': hypervisor})
    if links:
        body = rt.extended(body, {'hypervisors_links': rt.links})
    return body


LIST_RESPONSE = _list(_basic)
LIST_RESPONSE_V2_33 = _list(_basic, links=True)
LIST_RESPONSE_V2_53 = _list(_basic_v2_53, links=True)
DETAIL_RESPONSE = _list(_detail)
DETAIL_RESPONSE_V2_28 = _list(_detail_v2_28)
DETAIL_RESPONSE_V2_33 = _list(_detail_v2_28, links=True)
DETAIL_RESPONSE_V2_53 = _list(_detail_v2_53, links=True)
DETAIL_RESPONSE_V2_88 = _list(_detail_v2_88, links=True)
SHOW_RESPONSE = rt.wrapped('hypervisor', _detail)
SHOW_RESPONSE_V2_28 = rt.wrapped('hypervisor', _detail_v2_28)
SHOW_RESPONSE_V2_53 = rt.wrapped('hypervisor', _detail_v2_53)
SHOW_RESPONSE_V2_88 = rt.wrapped('hypervisor', _detail_v2_88)
# Search and servers (to 2.52).
SEARCH_RESPONSE = _list(_basic)
SERVERS_RESPONSE = _list(_basic_with_servers)
# Statistics and uptime (to 2.87); the uptime as the host's ``uptime``
# command words it.
STATISTICS_RESPONSE = rt.wrapped('hypervisor_statistics', rt.obj(
    dict(_capacity, count={'type': 'integer'})))
_uptime = {'uptime': {'type': 'string'}}
UPTIME_RESPONSE = rt.wrapped('hypervisor', rt.extended(_basic, _uptime,
                                                       ['uptime']))
UPTIME_RESPONSE_V2_53 = rt.wrapped('hypervisor', rt.extended(
    _basic, dict(_uuid_id, **_uptime), ['uptime']))
