"""The route table of the volume API: path -> {method: handler}."""

from tether.api.volume.handlers import volume_actions
from tether.api.volume.handlers import volume_metadata
from tether.api.volume.handlers import volumes

# Paths under /v3/{project_id}; each is also served under /v3 alone, as
# Cinder does from 3.67 (tether accepts both at every version).
RESOURCES = [
    ('/volumes', {'GET': volumes.list_volumes,
                  'POST': volumes.create_volume}),
    ('/volumes/detail', {'GET': volumes.list_volumes_detail}),
    ('/volumes/summary', {'GET': volumes.volume_summary}),
    ('/volumes/{volume_id}', {'GET': volumes.show_volume,
                              'PUT': volumes.update_volume,
                              'DELETE': volumes.delete_volume}),
    ('/volumes/{volume_id}/action', {'POST': volume_actions.dispatch}),
    ('/volumes/{volume_id}/metadata', {
        'GET': volume_metadata.list_metadata,
        'POST': volume_metadata.create_metadata,
        'PUT': volume_metadata.replace_metadata}),
    ('/volumes/{volume_id}/metadata/{key}', {
        'GET': volume_metadata.show_metadata_item,
        'PUT': volume_metadata.update_metadata_item,
        'DELETE': volume_metadata.delete_metadata_item}),
]


def declarations():
    routes = []
    for path, methods in RESOURCES:
        routes.append(('/v3/{project_id}' + path, methods))
        routes.append(('/v3' + path, methods))
    return routes
