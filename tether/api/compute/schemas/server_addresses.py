"""JSON schemas of /servers/{server_id}/ips and .../os-server-password:
their queries, which take no parameters and ignore any (as Nova)."""

from tether.api import response_types as rt
from tether.api import validation

QUERY = validation.IGNORED_QUERY


# Responses ------------------------------------------------------------------

# {network label: [addresses]} (always empty: tether has no networks).
_addresses = {
    'type': 'object',
    'additionalProperties': {
        'type': 'array',
        'items': rt.obj({
            'version': {'type': 'integer', 'enum': [4, 6]},
            'addr': {'type': 'string',
                     'anyOf': [{'format': 'ipv4'}, {'format': 'ipv6'}]},
        }),
    },
}
IPS_RESPONSE = rt.wrapped('addresses', _addresses)
# One network's addresses: {label: [addresses]} (never answered: tether
# has no networks, so any label is a 404).
NETWORK_IPS_RESPONSE = dict(_addresses, minProperties=1, maxProperties=1)
PASSWORD_RESPONSE = rt.wrapped('password', {'type': 'string'})
