"""JSON schemas of the server actions rescue and unrescue, as Nova's
rescue: ``{"rescue": null}`` or an object with an optional adminPass
(answered back, kept nowhere: see tether.compute.api.admin_password) and
an optional rescue_image_ref (an image's UUID); ``{"unrescue": null}``."""

from tether.api.compute.schemas import pause_server
from tether.api.compute.schemas import servers
from tether.api import response_types as rt
from tether.api import validation

RESCUE = validation.action('rescue', {
    'type': ['object', 'null'],
    'properties': {
        'adminPass': {'type': 'string', 'maxLength': 255},
        'rescue_image_ref': dict(servers.uuid,
                                 description='the UUID of an image'),
    },
    'additionalProperties': False,
    'description': 'null, or adminPass and rescue_image_ref (both '
                   'optional)'})

UNRESCUE = validation.action('unrescue', pause_server.NOTHING)


# Responses ------------------------------------------------------------------

# The rescue's password, while [api] enable_instance_password shows one;
# {} otherwise.
RESCUE_RESPONSE = rt.obj({'adminPass': {'type': 'string'}}, required=())
