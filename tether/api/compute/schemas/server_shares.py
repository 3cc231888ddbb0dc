"""JSON schemas of /servers/{server_id}/shares (2.97)."""

from tether.api.compute.schemas import servers
from tether.api import response_types as rt

# The name the guest mounts the share by: what the spec allows (ASCII
# letters, digits and "-", at most 64), which the database column holds
# whole. Nova accepts 255 characters into a 48-character column.
tag = {'type': 'string', 'minLength': 1, 'maxLength': 64,
       'pattern': '^[a-zA-Z0-9-]+$',
       'description': 'a tag of 1 to 64 ASCII letters, digits and "-"'}

CREATE = {
    'type': 'object',
    'properties': {
        'share': {
            'type': 'object',
            'properties': {
                'share_id': servers.uuid,
                'tag': tag,
            },
            'required': ['share_id'],
            'additionalProperties': False,
        },
    },
    'required': ['share'],
    'additionalProperties': False,
}

# Nova takes no query parameter on these routes: any is a 400.
NO_QUERY = {'type': 'object', 'properties': {},
            'additionalProperties': False}


# Responses ------------------------------------------------------------------

_share = rt.obj({
    'share_id': {'type': 'string'},
    'status': {'type': 'string'},
    'tag': {'type': 'string'},
})
# One share shown (or attached): where the policy allows (administrators)
# the attachment's UUID and the export location too.
_share_detail = rt.extended(_share, {'uuid': rt.uuid,
                                     'export_location': {'type': 'string'}})

LIST_RESPONSE = rt.wrapped('shares', {'type': 'array', 'items': _share})
SHOW_RESPONSE = rt.wrapped('share', _share_detail)
