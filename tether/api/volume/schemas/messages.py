"""Schemas of /messages: the list queries, and the answers."""

from tether.api import response_types as rt
from tether.api.volume.schemas import listing

NO_QUERY = {'type': 'object', 'properties': {}, 'additionalProperties': False}

# From 3.5: paging, sort and Cinder's filters of messages.
LIST_QUERY_V3_5 = listing.list_query(
    resource_uuid=listing.STRING, resource_type=listing.STRING,
    event_id=listing.STRING, request_id=listing.STRING,
    message_level=listing.STRING)
for _key in ('all_tenants',):
    del LIST_QUERY_V3_5['properties'][_key]


# Responses ------------------------------------------------------------------

_message = rt.obj({
    'id': rt.uuid,
    'event_id': {'type': 'string'},
    'user_message': {'type': 'string'},
    'message_level': {'type': 'string'},
    'created_at': rt.date_time,
    'guaranteed_until': rt.date_time,
    'request_id': rt.string_or_null,
    'resource_type': {'type': 'string'},
    'resource_uuid': {'type': 'string'},
    'links': rt.links,
}, required=['id', 'event_id', 'user_message', 'message_level',
             'created_at', 'guaranteed_until', 'request_id', 'links'])

SHOW_RESPONSE = rt.wrapped('message', _message)
LIST_RESPONSE = rt.obj({'messages': {'type': 'array', 'items': _message},
                        'messages_links': rt.links},
                       required=['messages'])
