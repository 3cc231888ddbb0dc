"""JSON schemas of /os-aggregates: create, update, the actions
add_host, remove_host and set_metadata, and what each answers, per
microversion (Nova's)."""

from tether.api.compute.schemas import servers
from tether.api.compute import versions
from tether.api import response_types as rt
from tether.api import validation

# Nova's az_name: a name without ":" (which would name a host).
zone_name = {'type': 'string', 'minLength': 1, 'maxLength': 255,
             'pattern': r'^(?! )[^\x00-\x1f:]*(?<! )$',
             'description': 'a zone name of 1 to 255 printable characters '
                            'other than ":", without leading or trailing '
                            'spaces'}
_zone = {'oneOf': [zone_name, {'type': 'null'}]}
# Nova's fqdn: what the services table holds.
_host = {'type': 'string', 'minLength': 1, 'maxLength': 255,
         'pattern': '^[a-zA-Z0-9-._]*$',
         'description': 'a host name of letters, digits, "-", ".", "_"'}

CREATE = {
    'type': 'object',
    'properties': {'aggregate': {
        'type': 'object',
        'properties': {'name': servers.name, 'availability_zone': _zone},
        'required': ['name'], 'additionalProperties': False}},
    'required': ['aggregate'], 'additionalProperties': False,
}

# Nova's update takes a name with leading or trailing spaces, and strips
# them.
_spaced_name = {'type': 'string', 'minLength': 1, 'maxLength': 255,
                'pattern': r'^[^\x00-\x1f]*$',
                'description': 'a name of 1 to 255 printable characters'}
UPDATE = {
    'type': 'object',
    'properties': {'aggregate': {
        'type': 'object',
        'properties': {'name': _spaced_name, 'availability_zone': _zone},
        'anyOf': [{'required': ['name']},
                  {'required': ['availability_zone']}],
        'additionalProperties': False}},
    'required': ['aggregate'], 'additionalProperties': False,
}

ADD_HOST = validation.action('add_host', {
    'type': 'object', 'properties': {'host': _host},
    'required': ['host'], 'additionalProperties': False})
REMOVE_HOST = validation.action('remove_host', {
    'type': 'object', 'properties': {'host': _host},
    'required': ['host'], 'additionalProperties': False})
SET_METADATA = validation.action('set_metadata', {
    'type': 'object',
    'properties': {'metadata': {
        'type': 'object',
        'patternProperties': {'^[a-zA-Z0-9-_:. ]{1,255}$': {
            'type': ['string', 'null'], 'maxLength': 255}},
        'additionalProperties': False,
        'description': 'keys of 1 to 255 letters, digits, "-", "_", ":", '
                       '".", " "; values of up to 255 characters, or null '
                       'to remove the key'}},
    'required': ['metadata'], 'additionalProperties': False})

ANY_QUERY = validation.IGNORED_QUERY


# Responses ------------------------------------------------------------------

_aggregate = rt.obj({
    'availability_zone': rt.string_or_null,
    'created_at': rt.date_time,
    'deleted': {'type': 'boolean'},
    'deleted_at': rt.date_time_or_null,
    'hosts': {'type': ['array', 'null'], 'items': {'type': 'string'}},
    'id': {'type': 'integer'},
    'metadata': {'type': ['object', 'null'],
                 'additionalProperties': {'type': 'string'}},
    'name': {'type': 'string'},
    'updated_at': rt.date_time_or_null,
})
_with_uuid = {'uuid': rt.uuid}


def _created(schema):
    out = dict(schema, properties=dict(schema['properties']))
    for key in ('hosts', 'metadata'):
        del out['properties'][key]
    out['required'] = [k for k in schema['required']
                       if k not in ('hosts', 'metadata')]
    return out


def _windows(wrap, item):
    return rt.by_version(wrap(item), (versions.AGGREGATE_UUID, wrap(
        rt.extended(item, _with_uuid, ['uuid']))))


def _one(item):
    return rt.wrapped('aggregate', item)


def _list(item):
    return rt.obj({'aggregates': {'type': 'array', 'items': item}})


ONE_RESPONSES = _windows(_one, _aggregate)
CREATE_RESPONSES = _windows(_one, _created(_aggregate))
LIST_RESPONSES = _windows(_list, _aggregate)
