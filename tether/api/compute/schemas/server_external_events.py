"""JSON schemas of /os-server-external-events, per microversion."""

import copy

from tether.api.compute.schemas import servers

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
