"""JSON schemas of /os-keypairs: create, and the list, show and delete
queries, and what each answers, per microversion (Nova's)."""

import copy

from tether.api import response_types as rt
from tether.api import validation

_NAME_DESCRIPTION = ('a name of 1 to 255 letters, digits, "_", "-"%s and '
                     'inner spaces')

# Nova's keypair_name_special_chars: no leading or trailing space.
name = {
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    'pattern': r'^(?! )[_\- a-zA-Z0-9]+(?<! )$',
    'description': _NAME_DESCRIPTION % '',
}
# From 2.92, "@" and "." too.
name_v2_92 = dict(name, pattern=r'^(?! )[_\-@. a-zA-Z0-9]+(?<! )$',
                  description=_NAME_DESCRIPTION % ', "@", "."')

_public_key = {'type': 'string', 'minLength': 1, 'maxLength': 65535,
               'description': 'an OpenSSH public key, or an X.509 '
                              'certificate in PEM'}
_type = {'type': 'string', 'enum': ['ssh', 'x509'],
         'description': '"ssh" or "x509"'}
_user_id = {'type': 'string', 'minLength': 1, 'maxLength': 255}


def _create(properties, required=('name',)):
    return {
        'type': 'object',
        'properties': {'keypair': {
            'type': 'object', 'properties': properties,
            'required': list(required), 'additionalProperties': False}},
        'required': ['keypair'], 'additionalProperties': False,
    }


CREATE = _create({'name': name, 'public_key': _public_key})
CREATE_V2_2 = _create({'name': name, 'type': _type,
                       'public_key': _public_key})
CREATE_V2_10 = _create({'name': name, 'type': _type,
                        'public_key': _public_key, 'user_id': _user_id})
CREATE_V2_92 = _create({'name': name_v2_92, 'type': _type,
                        'public_key': _public_key, 'user_id': _user_id},
                       required=('name', 'public_key'))

# A query parameter given twice is a list; Nova takes the first.
_user_id_query = {'anyOf': [_user_id,
                            {'type': 'array', 'items': _user_id,
                             'minItems': 1}],
                  'description': 'a user ID'}

# Before 2.10 Nova ignores every query parameter; from 2.75 it rejects
# those it does not know.
ANY_QUERY = validation.IGNORED_QUERY

QUERY_V2_10 = {
    'type': 'object',
    'properties': {'user_id': _user_id_query},
    'additionalProperties': True,
}
QUERY_V2_75 = dict(QUERY_V2_10, additionalProperties=False)

LIST_QUERY_V2_35 = copy.deepcopy(QUERY_V2_10)
LIST_QUERY_V2_35['properties'].update({
    'limit': validation.non_negative_integer_string,
    'marker': {'type': 'string', 'maxLength': 255},
})
LIST_QUERY_V2_75 = dict(LIST_QUERY_V2_35, additionalProperties=False)


# Responses ------------------------------------------------------------------

_keypair_index = rt.obj({
    'name': {'type': 'string'},
    'public_key': {'type': 'string'},
    'fingerprint': {'type': 'string'},
})
_keypair_create = rt.extended(_keypair_index, {
    'user_id': {'type': 'string'},
    # Only of a key pair tether generated (before 2.92).
    'private_key': {'type': 'string'},
}, required=['user_id'])
_keypair_show = rt.extended(_keypair_create, {
    'id': {'type': 'integer'},
    'created_at': rt.date_time,
    'updated_at': rt.date_time_or_null,
    'deleted': {'type': 'boolean'},
    'deleted_at': rt.date_time_or_null,
}, required=['id', 'created_at', 'updated_at', 'deleted', 'deleted_at'])
_with_type = {'type': {'type': 'string', 'enum': ['ssh', 'x509']}}


def _list(keypair, links=False):
    body = rt.obj({'keypairs': {
        'type': 'array',
        'items': rt.wrapped('keypair', keypair)}})
    if links:
        body = rt.extended(body, {'keypairs_links': rt.links})
    return body


LIST_RESPONSE = _list(_keypair_index)
LIST_RESPONSE_V2_2 = _list(rt.extended(_keypair_index, _with_type, ['type']))
LIST_RESPONSE_V2_35 = _list(rt.extended(_keypair_index, _with_type,
                                        ['type']), links=True)
CREATE_RESPONSE = rt.wrapped('keypair', _keypair_create)
CREATE_RESPONSE_V2_2 = rt.wrapped('keypair', rt.extended(
    _keypair_create, _with_type, ['type']))
SHOW_RESPONSE = rt.wrapped('keypair', _keypair_show)
SHOW_RESPONSE_V2_2 = rt.wrapped('keypair', rt.extended(
    _keypair_show, _with_type, ['type']))
