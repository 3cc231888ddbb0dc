"""JSON schemas of /images/{image_id}/metadata (the proxy to the image
API's properties, to 2.38): the bodies are Nova's server metadata's."""

from tether.api.compute.schemas import server_metadata
from tether.api import response_types as rt

ANY_QUERY = server_metadata.ANY_QUERY
CREATE = server_metadata.CREATE
UPDATE_ALL = server_metadata.UPDATE_ALL
UPDATE = server_metadata.UPDATE


# Responses ------------------------------------------------------------------

# An image's properties are text, but Nova decodes those it stores as
# JSON (block_device_mapping, mappings): any value, as Tempest checks.
METADATA_RESPONSE = rt.wrapped('metadata', {'type': 'object'})
META_RESPONSE = rt.wrapped('meta', {'type': 'object', 'minProperties': 1,
                                    'maxProperties': 1})
