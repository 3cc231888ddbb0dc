"""JSON schemas of /os-server-external-events, per microversion."""

import copy

from tether.api.compute.schemas import servers
from tether.api import response_types as rt

_NAMES = ['network-changed', 'network-vif-plugged', 'network-vif-unplugged',
          'network-vif-deleted']

_event = {
    'type': 'object',
    'properties': {
        'server_uuid': servers.uuid,
        'name': {'type': 'string', 'enum': _NAMES},
        'status': {'type': 'string',
                   'enum': ['failed', 'completed', 'in-progress']},
        'tag': {'type': 'string', 'maxLength': 255},
    },
    'required': ['server_uuid', 'name'],
    'additionalProperties': False,
}


def _create(event):
    return {'type': 'object',
            'properties': {'events': {'type': 'array', 'minItems': 1,
                                      'items': event}},
            'required': ['events'], 'additionalProperties': False}


def _with_names(*names):
    event = copy.deepcopy(_event)
    event['properties']['name']['enum'] += list(names)
    return event


CREATE = _create(_event)
CREATE_V2_51 = _create(_with_names('volume-extended'))
CREATE_V2_76 = _create(_with_names('volume-extended', 'power-update'))
CREATE_V2_82 = _create(_with_names('volume-extended', 'power-update',
                                   'accelerator-request-bound'))
CREATE_V2_93 = _create(_with_names('volume-extended', 'power-update',
                                   'accelerator-request-bound',
                                   'volume-reimaged'))


# Responses ------------------------------------------------------------------

def _answer(event):
    """The events as given, each with its code and what became of it:
    "completed" if it was accepted, else "failed"."""
    out = copy.deepcopy(event)
    out['properties']['code'] = {'type': 'integer',
                                 'enum': [200, 400, 404, 422]}
    out['properties']['status'] = {'type': 'string',
                                   'enum': ['completed', 'failed']}
    out['required'] = ['server_uuid', 'name', 'status', 'code']
    return rt.wrapped('events', {'type': 'array', 'minItems': 1,
                                 'items': out})


CREATE_RESPONSE = _answer(_event)
CREATE_RESPONSE_V2_51 = _answer(_with_names('volume-extended'))
CREATE_RESPONSE_V2_76 = _answer(_with_names('volume-extended',
                                            'power-update'))
CREATE_RESPONSE_V2_82 = _answer(_with_names('volume-extended', 'power-update',
                                            'accelerator-request-bound'))
CREATE_RESPONSE_V2_93 = _answer(_with_names('volume-extended', 'power-update',
                                            'accelerator-request-bound',
                                            'volume-reimaged'))
# 200 when every event was accepted, 207 (with each event's code) when
# one was not.
STATUSES = (200, 207)
