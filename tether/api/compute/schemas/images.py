"""JSON schemas of /images (the proxy to the image API, to 2.35): the
list queries (Nova's filters and paging), and what the routes answer
(Nova's shapes, as Tempest's response schemas check them)."""

from tether.api import response_types as rt
from tether.api import validation

_text = {'type': 'string', 'maxLength': 255}
_count = validation.non_negative_integer_string

# Nova's filters and paging; other keys are ignored, as Nova does.
# minRam and minDisk are compared with the image API's integers (Nova
# passes any text on, which a database may fail on): integers here.
LIST_QUERY = {
    'type': 'object',
    'properties': {
        'name': _text,
        'status': _text,
        'changes-since': {'type': 'string', 'maxLength': 64,
                          'description': 'an ISO 8601 date and time'},
        'server': _text,
        'type': _text,
        'minRam': _count,
        'minDisk': _count,
        'limit': _count,
        'marker': _text,
        # Nova takes them and the image API ignores them.
        'page_size': _count,
        'offset': _count,
    },
    'patternProperties': {'^property-.+$': _text},
    'additionalProperties': True,
}

SHOW_QUERY = validation.IGNORED_QUERY


# Responses ------------------------------------------------------------------

STATUSES = ['ACTIVE', 'SAVING', 'DELETED', 'ERROR', 'UNKNOWN']

# self, bookmark, and the image API's own URL of the image (alternate,
# with its media type).
_links = rt.links
_image_basic = rt.obj({
    'id': rt.uuid,
    'name': rt.string_or_null,
    'links': _links,
})
_server = rt.obj({'id': {'type': 'string'}, 'links': _links})
_image = rt.obj({
    'id': rt.uuid,
    'name': rt.string_or_null,
    'links': _links,
    'minRam': {'type': 'integer', 'minimum': 0},
    'minDisk': {'type': 'integer', 'minimum': 0},
    # The image's properties: text, or what Nova decodes of JSON text.
    'metadata': {'type': 'object'},
    'created': rt.date_time,
    'updated': rt.date_time_or_null,
    'status': {'type': 'string', 'enum': STATUSES},
    'progress': {'type': 'integer', 'enum': [0, 25, 50, 100]},
    'OS-EXT-IMG-SIZE:size': {'type': 'integer'},
    # Of an image of a server (instance_uuid).
    'server': _server,
    # Of an image with auto_disk_config.
    'OS-DCF:diskConfig': {'type': 'string', 'enum': ['AUTO', 'MANUAL']},
}, required=['id', 'name', 'links', 'minRam', 'minDisk', 'metadata',
             'created', 'updated', 'status', 'progress',
             'OS-EXT-IMG-SIZE:size'])

LIST_RESPONSE = rt.obj({
    'images': {'type': 'array', 'items': _image_basic},
    'images_links': _links,
}, required=['images'])
DETAIL_RESPONSE = rt.obj({
    'images': {'type': 'array', 'items': _image},
    'images_links': _links,
}, required=['images'])
SHOW_RESPONSE = rt.wrapped('image', _image)
