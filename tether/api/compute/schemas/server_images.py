"""JSON schemas of the server actions that snapshot a server into an
image: createImage and createBackup (Nova's)."""

from tether.api.compute.schemas import servers
from tether.api import response_types as rt
from tether.api import validation

CREATE_IMAGE = validation.action('createImage', {
    'type': 'object',
    'properties': {
        'name': servers.name,
        # Properties of the new image (the image API's), which win over
        # those it inherits from the server's image.
        'metadata': servers.metadata,
    },
    'required': ['name'],
    'additionalProperties': False,
})

# Nova's non_negative_integer: an integer, or its digits as a string.
_rotation = {'type': ['integer', 'string'], 'pattern': '^[0-9]+$',
             'minLength': 1, 'maxLength': 10, 'minimum': 0,
             'maximum': validation.DB_MAX_INT,
             'description': 'how many backups of this backup_type to keep: '
                            'an integer from 0'}

CREATE_BACKUP = validation.action('createBackup', {
    'type': 'object',
    'properties': {
        'name': servers.name,
        # Free text, as Nova takes it ("daily", "weekly", ...): the
        # rotation counts the backups of the same type.
        'backup_type': {'type': 'string', 'maxLength': 255},
        'rotation': _rotation,
        'metadata': servers.metadata,
    },
    'required': ['name', 'backup_type', 'rotation'],
    'additionalProperties': False,
})

# From 2.45 the answer names the new image (before: its URL in the
# Location header, no body).
IMAGE_ID_RESPONSE = rt.obj({'image_id': rt.uuid}, required=['image_id'])
