"""JSON schemas of /flavors: create, list and show queries."""

import copy

from tether.api import response_types as rt
from tether.api import validation
from tether.compute.api import flavors as compute_flavors

# Nova ignores query parameters it does not know, and from 2.75 rejects
# them; show and delete take none.
ANY_QUERY = validation.IGNORED_QUERY

_integer_string = {
    'description': 'an integer', 'type': 'string',
    'pattern': '^-?[0-9]{1,10}$',
}

LIST_QUERY = {
    'type': 'object',
    'properties': {
        'limit': validation.non_negative_integer_string,
        'marker': {'type': 'string', 'maxLength': 255},
        # "none" lists public and private flavors (admins).
        'is_public': {'anyOf': [validation.boolean,
                                {'type': 'string',
                                 'enum': ['none', 'None', 'NONE']}],
                      'description': 'a boolean, or "none" for all'},
        'minRam': _integer_string,
        'minDisk': _integer_string,
        'sort_key': {'type': 'string',
                     'enum': list(compute_flavors.SORT_KEYS),
                     'description': 'one of %s'
                                    % ', '.join(compute_flavors.SORT_KEYS)},
        'sort_dir': {'type': 'string', 'enum': ['asc', 'desc'],
                     'description': '"asc" or "desc"'},
    },
    'additionalProperties': True,
}

LIST_QUERY_V2_75 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V2_75['additionalProperties'] = False


def _size(minimum):
    return {
        'description': 'an integer from %d to %d'
                       % (minimum, validation.DB_MAX_INT),
        'type': ['integer', 'string'], 'pattern': '^ *[0-9]+ *$',
        'minimum': minimum, 'maximum': validation.DB_MAX_INT,
    }


_name = {
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    'pattern': r'^(?!\s)[^\x00-\x1f\x7f]*(?<!\s)$',
    'description': 'a name of 1 to 255 printable characters, without '
                   'leading or trailing white space',
}

_flavor = {
    'type': 'object',
    'properties': {
        'name': _name,
        # A number is taken as its decimal string; null or "auto" (or no
        # id at all) makes a UUID.
        'id': {
            'type': ['string', 'integer', 'null'],
            'minLength': 1, 'maxLength': 255,
            'pattern': r'^(?! )[a-zA-Z0-9. _-]+(?<! )$',
            'description': 'an ID of letters, digits, ".", "_", "-" and '
                           'inner spaces, up to 255 characters',
        },
        'ram': _size(1),
        'vcpus': _size(1),
        'disk': _size(0),
        'OS-FLV-EXT-DATA:ephemeral': _size(0),
        'swap': _size(0),
        # Checked for a finite number above 0 by the handler: a string
        # has no numeric bounds in JSON schema.
        'rxtx_factor': {
            'type': ['number', 'string'],
            'pattern': r'^ *[0-9]+(\.[0-9]+)? *$',
            'maxLength': 64,
            'description': 'a number above 0',
        },
        'os-flavor-access:is_public': validation.boolean,
    },
    'required': ['name', 'ram', 'vcpus'],
    'additionalProperties': False,
}

_flavor_v2_55 = copy.deepcopy(_flavor)
_description = {
    'type': ['string', 'null'], 'maxLength': 65535,
    'pattern': r'^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$',
    'description': 'a text of up to 65535 printable characters',
}
_flavor_v2_55['properties']['description'] = _description


def _create(flavor):
    return {'type': 'object', 'properties': {'flavor': flavor},
            'required': ['flavor'], 'additionalProperties': False}


CREATE = _create(_flavor)
CREATE_V2_55 = _create(_flavor_v2_55)

# The description is all that changes (and so is required), as in Nova.
UPDATE_V2_55 = _create({
    'type': 'object', 'properties': {'description': _description},
    'required': ['description'], 'additionalProperties': False})


# Responses ------------------------------------------------------------------

_links = rt.links
_flavor_basic = rt.obj({
    'id': {'type': 'string'},
    'name': {'type': 'string'},
    'links': _links,
})
_with_description = {
    'description': {'type': ['string', 'null'], 'maxLength': 65535}}
# Before 2.75 a flavor without swap shows "" (Nova's), from 2.75 0.
_swap = {'anyOf': [{'type': 'integer'}, {'type': 'string', 'enum': ['']}]}
# The keys of Nova's extensions (the ephemeral disk, disabled, public,
# rxtx_factor) are not required, as Tempest has them.
_flavor_detail = rt.extended(_flavor_basic, {
    'ram': {'type': 'integer'},
    'vcpus': {'type': 'integer'},
    'disk': {'type': 'integer'},
    'swap': _swap,
    'OS-FLV-EXT-DATA:ephemeral': {'type': 'integer'},
    'OS-FLV-DISABLED:disabled': {'type': 'boolean'},
    'os-flavor-access:is_public': {'type': 'boolean'},
    'rxtx_factor': {'type': 'number'},
}, required=['ram', 'vcpus', 'disk', 'swap'])
_flavor_detail_v2_55 = rt.extended(_flavor_detail, _with_description,
                                   ['description'])
# From 2.61, extra_specs where the policy of their listing allows.
_flavor_detail_v2_61 = rt.extended(_flavor_detail_v2_55, {
    'extra_specs': rt.string_map})
_flavor_detail_v2_75 = rt.extended(_flavor_detail_v2_61, {
    'swap': {'type': 'integer'}})


def _page(flavor):
    return rt.obj({'flavors': {'type': 'array', 'items': flavor},
                   'flavors_links': _links}, required=['flavors'])


LIST_RESPONSE = _page(_flavor_basic)
LIST_RESPONSE_V2_55 = _page(rt.extended(_flavor_basic, _with_description,
                                        ['description']))
DETAIL_RESPONSE = _page(_flavor_detail)
DETAIL_RESPONSE_V2_55 = _page(_flavor_detail_v2_55)
DETAIL_RESPONSE_V2_61 = _page(_flavor_detail_v2_61)
DETAIL_RESPONSE_V2_75 = _page(_flavor_detail_v2_75)
# Show, create and update (from 2.55) answer one flavor in detail.
SHOW_RESPONSE = rt.wrapped('flavor', _flavor_detail)
SHOW_RESPONSE_V2_55 = rt.wrapped('flavor', _flavor_detail_v2_55)
SHOW_RESPONSE_V2_61 = rt.wrapped('flavor', _flavor_detail_v2_61)
SHOW_RESPONSE_V2_75 = rt.wrapped('flavor', _flavor_detail_v2_75)
# By the windows of tether.api.compute.handlers.flavors: 2.1, 2.55,
# 2.61, 2.75.
DETAIL_RESPONSES = (DETAIL_RESPONSE, DETAIL_RESPONSE_V2_55,
                    DETAIL_RESPONSE_V2_61, DETAIL_RESPONSE_V2_75)
SHOW_RESPONSES = (SHOW_RESPONSE, SHOW_RESPONSE_V2_55, SHOW_RESPONSE_V2_61,
                  SHOW_RESPONSE_V2_75)
