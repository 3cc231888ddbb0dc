"""JSON schemas of /os-hypervisors: the list and show queries."""

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
