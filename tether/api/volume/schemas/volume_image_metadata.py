"""Schemas of the image metadata actions (POST /volumes/{id}/action):
os-set_image_metadata, os-unset_image_metadata, os-show_image_metadata."""

from tether.api import response_types as rt
from tether.api import validation as v


# Cinder's keys; values of at most 255 characters (Cinder takes up to
# 65535, a MySQL TEXT) as the volume metadata's, since an upload makes
# them image properties.
SET_IMAGE_METADATA = v.action('os-set_image_metadata', {
    'type': 'object',
    'properties': {'metadata': v.metadata},
    'required': ['metadata'],
    'additionalProperties': False,
})

UNSET_IMAGE_METADATA = v.action('os-unset_image_metadata', {
    'type': 'object',
    'properties': {
        'key': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    },
    'required': ['key'],
    'additionalProperties': False,
})

# Cinder takes any value here (python-cinderclient sends null, Tempest
# {}); tether takes those two.
SHOW_IMAGE_METADATA = v.action('os-show_image_metadata', {
    'oneOf': [{'type': 'null'},
              {'type': 'object', 'properties': {},
               'additionalProperties': False}],
})


# Responses ------------------------------------------------------------------

# The image metadata a set leaves, and what a show finds.
METADATA_RESPONSE = rt.wrapped('metadata', rt.string_map)
