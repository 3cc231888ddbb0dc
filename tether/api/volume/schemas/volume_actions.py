"""Schemas of POST /volumes/{id}/action, one per action."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v
from tether.objects import fields
from tether.volume import volume_image


EXTEND = v.action('os-extend', {
    'type': 'object',
    'properties': {'new_size': v.positive_integer},
    'required': ['new_size'],
    'additionalProperties': False,
})

RESET_STATUS = v.action('os-reset_status', {
    'type': 'object',
    'properties': {
        'status': {'type': 'string',
                   'enum': list(fields.VolumeStatus.ALL)},
        'attach_status': {'type': 'string',
                          'enum': ['attached', 'detached']},
        'migration_status': {'type': 'string', 'maxLength': 255},
    },
    'minProperties': 1,
    'additionalProperties': False,
})

# Cinder takes a string or null here and treats "false" as true; tether
# takes exactly a JSON boolean.
EXTEND_VOLUME_COMPLETION = v.action('os-extend_volume_completion', {
    'type': 'object',
    'properties': {'error': {'type': 'boolean'}},
    'required': ['error'],
    'additionalProperties': False,
})

# Cinder's, with the disk formats tether writes (Cinder also lists vmdk,
# vdi, vhd, vhdx and ploop) and the container format whose data is the
# disk (Cinder takes any string: the image API then stores a raw disk as
# "ovf" or "docker").
UPLOAD_IMAGE = v.action('os-volume_upload_image', {
    'type': 'object',
    'properties': {
        'image_name': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'force': v.boolean,
        'disk_format': {
            'description': 'one of %s'
                           % ', '.join(volume_image.UPLOAD_DISK_FORMATS),
            'type': 'string',
            'enum': list(volume_image.UPLOAD_DISK_FORMATS)},
        'container_format': {
            'description': 'one of %s'
                           % ', '.join(volume_image.CONTAINER_FORMATS),
            'type': 'string',
            'enum': list(volume_image.CONTAINER_FORMATS)},
    },
    'required': ['image_name'],
    'additionalProperties': False,
})

# 3.1: the new image's visibility and protection.
UPLOAD_IMAGE_V3_1 = copy.deepcopy(UPLOAD_IMAGE)
UPLOAD_IMAGE_V3_1['properties']['os-volume_upload_image'][
    'properties'].update({
        'visibility': {'type': 'string',
                       'enum': ['community', 'public', 'private',
                                'shared']},
        'protected': v.boolean,
    })

# Cinder takes Cinder's boolean strings ("true", "yes", "1" ...) for
# reimage_reserved; tether takes a JSON boolean only, as Nova and
# python-cinderclient send it.
REIMAGE = v.action('os-reimage', {
    'type': 'object',
    'properties': {
        'image_id': v.uuid,
        'reimage_reserved': {'type': 'boolean'},
    },
    'required': ['image_id'],
    'additionalProperties': False,
})

RETYPE = v.action('os-retype', {
    'type': 'object',
    'properties': {
        # A type's name or ID.
        'new_type': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'migration_policy': {'type': ['string', 'null'],
                             'enum': ['never', 'on-demand', None]},
    },
    'required': ['new_type'],
    'additionalProperties': False,
})


# Responses ------------------------------------------------------------------

# os-volume_upload_image: the volume as the upload claimed it and the
# image the image API made. Cinder puts the volume's type object whole
# (null without a type); clients read its id and name.
UPLOAD_IMAGE_RESPONSE = rt.wrapped('os-volume_upload_image', rt.obj({
    'id': rt.uuid,
    'updated_at': rt.date_time_or_null,
    'status': {'type': 'string'},
    'display_description': rt.string_or_null,
    'size': {'type': 'integer'},
    'volume_type': {'type': ['object', 'null'],
                    'properties': {'id': rt.uuid_or_null,
                                   'name': rt.string_or_null}},
    'image_id': rt.uuid,
    'container_format': {'type': 'string'},
    'disk_format': {'type': 'string'},
    'image_name': rt.string_or_null,
    # As the image API answered them.
    'protected': {'type': 'boolean'},
    'visibility': {'type': 'string'},
}, required=['id', 'updated_at', 'status', 'display_description', 'size',
             'volume_type', 'image_id', 'container_format', 'disk_format',
             'image_name']))
