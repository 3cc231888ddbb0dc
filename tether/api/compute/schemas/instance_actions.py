"""JSON schemas of /servers/{server_id}/os-instance-actions queries."""

import copy

from tether.api import response_types as rt
from tether.api import validation

# Before 2.58 Nova takes no parameters and ignores any.
ANY_QUERY = validation.IGNORED_QUERY

_time = {'type': 'string', 'maxLength': 64,
         'description': 'an ISO 8601 date and time'}

LIST_QUERY_V2_58 = {
    'type': 'object',
    'properties': {
        'limit': validation.non_negative_integer_string,
        'marker': {'type': 'string', 'maxLength': 255},
        'changes-since': _time,
    },
    'additionalProperties': False,
}

LIST_QUERY_V2_66 = copy.deepcopy(LIST_QUERY_V2_58)
LIST_QUERY_V2_66['properties']['changes-before'] = _time


# Responses ------------------------------------------------------------------

_action = rt.obj({
    'action': {'type': 'string'},
    'instance_uuid': {'type': 'string'},
    'request_id': {'type': 'string'},
    'user_id': {'type': 'string'},
    'project_id': {'type': 'string'},
    'start_time': rt.date_time,
    'message': rt.string_or_null,
})
_action_v2_58 = rt.extended(_action, {'updated_at': rt.date_time},
                            ['updated_at'])
# Finish time and result are null until the event is over; the
# traceback only for those the events policy allows (administrators).
_event = rt.obj({
    'event': {'type': 'string'},
    'start_time': rt.date_time,
    'finish_time': rt.date_time_or_null,
    'result': rt.string_or_null,
    'traceback': rt.string_or_null,
}, required=['event', 'start_time', 'finish_time', 'result'])
# 2.62: hostId (the host, hashed for the project), and host for whom the
# events policy allows.
_event_v2_62 = rt.extended(_event, {'hostId': {'type': 'string'},
                                    'host': rt.string_or_null}, ['hostId'])
# 2.84: details of a failed event, where its policy allows.
_event_v2_84 = rt.extended(_event_v2_62, {'details': rt.string_or_null})


def _list(action, links=False):
    body = rt.wrapped('instanceActions', {'type': 'array', 'items': action})
    if links:   # from 2.58, of a page that is not the last
        body = rt.extended(body, {'links': rt.links})
    return body


def _show(action, event, events_required):
    """An action with its events: before 2.51 only for whom the events
    policy allows, from 2.51 for all."""
    return rt.wrapped('instanceAction', rt.extended(
        action, {'events': {'type': 'array', 'items': event}},
        ['events'] if events_required else []))


LIST_RESPONSE = _list(_action)
LIST_RESPONSE_V2_58 = _list(_action_v2_58, links=True)
SHOW_RESPONSE = _show(_action, _event, False)
SHOW_RESPONSE_V2_51 = _show(_action, _event, True)
SHOW_RESPONSE_V2_58 = _show(_action_v2_58, _event, True)
SHOW_RESPONSE_V2_62 = _show(_action_v2_58, _event_v2_62, True)
SHOW_RESPONSE_V2_84 = _show(_action_v2_58, _event_v2_84, True)
