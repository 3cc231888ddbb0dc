"""Schemas of /os-services: the list query, and the list."""

from tether.api import response_types as rt
from tether.api.volume import versions

_NAME = {'type': 'string', 'maxLength': 255}

LIST_QUERY = {
    'type': 'object',
    'properties': {'host': _NAME, 'binary': _NAME},
    'additionalProperties': False,
}


# Responses ------------------------------------------------------------------

_service = rt.obj({
    # cinder-volume (tether-volume) and the other services.
    'binary': {'type': 'string'},
    'host': {'type': 'string'},
    'zone': {'type': 'string'},
    'status': {'type': 'string', 'enum': ['enabled', 'disabled']},
    'state': {'type': 'string', 'enum': ['up', 'down']},
    # Null until the service first reports.
    'updated_at': rt.date_time_or_null,
    'disabled_reason': rt.string_or_null,
    # Of volume services only.
    'replication_status': {'type': 'string'},
    'active_backend_id': rt.string_or_null,
    'frozen': {'type': 'boolean'},
}, required=['binary', 'host', 'zone', 'status', 'state', 'updated_at',
             'disabled_reason'])


def _list(service):
    return rt.wrapped('services', {'type': 'array', 'items': service})


LIST_RESPONSES = rt.growing(_service, _list, [
    (versions.SERVICE_CLUSTER, {'cluster': rt.string_or_null}, ['cluster']),
    # Of volume services only: whether their backend is up.
    (versions.BACKEND_STATE, {'backend_state': {
        'type': ['string', 'null'], 'enum': ['up', 'down', None]}}, []),
])


# Actions (PUT /os-services/{action}) -----------------------------------------

_STRING = {'type': 'string', 'minLength': 1, 'maxLength': 255}

ENABLE = {
    'type': 'object',
    'properties': {
        'host': _STRING,
        'binary': _STRING,
        # Cinder's older name of binary, still taken.
        'service': _STRING,
    },
    'required': ['host'],
    'anyOf': [{'required': ['binary']}, {'required': ['service']}],
    'additionalProperties': False,
}
DISABLE_LOG_REASON = {
    'type': 'object',
    'properties': dict(ENABLE['properties'], disabled_reason={
        'type': 'string', 'minLength': 1, 'maxLength': 255,
        'pattern': r'\S'}),
    'required': ['host', 'disabled_reason'],
    'anyOf': ENABLE['anyOf'],
    'additionalProperties': False,
}
FREEZE = {
    'type': 'object',
    'properties': {'host': _STRING},
    'required': ['host'],
    'additionalProperties': False,
}

_changed = {
    'host': {'type': 'string'},
    'service': {'type': 'string'},
    'binary': {'type': 'string'},
    'status': {'type': 'string', 'enum': ['enabled', 'disabled']},
    'disabled': {'type': 'boolean'},
}
ENABLE_RESPONSE = rt.obj(dict(_changed, disabled_reason={'type': 'null'}))
DISABLE_RESPONSE = rt.obj(_changed)
DISABLE_LOG_REASON_RESPONSE = rt.obj(
    dict(_changed, disabled_reason={'type': 'string'}))
