"""User messages as JSON (Cinder's shape: the text is built from the
message's action and detail ids)."""

from tether.volume.api import messages as message_api

_COLLECTION = 'messages'


def _links(req, message_id):
    base = req.application_url
    project = req.urlvars.get('project_id')
    prefix = '%s/v3/%s' % (base, project) if project else '%s/v3' % base
    path = '%s/%s' % (_COLLECTION, message_id)
    return [{'rel': 'self', 'href': '%s/%s' % (prefix, path)},
            {'rel': 'bookmark',
             'href': '%s/%s' % (prefix.replace('/v3', '', 1), path)}]


def message(req, msg):
    d = {
        'id': msg.id,
        'event_id': msg.event_id,
        'user_message': message_api.user_message(msg),
        'message_level': msg.message_level,
        'created_at': msg.created_at,
        'guaranteed_until': msg.expires_at,
        'request_id': msg.request_id,
        'links': _links(req, msg.id),
    }
    if msg.resource_type:
        d['resource_type'] = msg.resource_type
    if msg.resource_uuid:
        d['resource_uuid'] = msg.resource_uuid
    return d
