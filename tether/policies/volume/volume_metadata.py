"""Policy rules of a volume's metadata and image metadata (Cinder keeps
them together too)."""

from tether.policies import base

GET_METADATA = 'volume:get_volume_metadata'
CREATE_METADATA = 'volume:create_volume_metadata'
UPDATE_METADATA = 'volume:update_volume_metadata'
DELETE_METADATA = 'volume:delete_volume_metadata'
IMAGE_METADATA_SHOW = 'volume_extension:volume_image_metadata:show'
IMAGE_METADATA_SET = 'volume_extension:volume_image_metadata:set'
IMAGE_METADATA_REMOVE = 'volume_extension:volume_image_metadata:remove'

_V = '/volumes/{volume_id}'
_A = _V + '/action'

rules = [
    base.rule(GET_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show a volume\'s metadata, or its image metadata '
              '(os-show_image_metadata).',
              [('GET', _V + '/metadata'), ('GET', _V + '/metadata/{key}'),
               ('POST', _A)]),
    base.rule(CREATE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Add metadata to a volume.', [('POST', _V + '/metadata')]),
    base.rule(UPDATE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Replace a volume\'s metadata or one key; also needed (as in '
              'Cinder) to set its image metadata.',
              [('PUT', _V + '/metadata'), ('PUT', _V + '/metadata/{key}'),
               ('POST', _A)]),
    base.rule(DELETE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete a key of a volume\'s metadata; also needed (as in '
              'Cinder) to remove a key of its image metadata.',
              [('DELETE', _V + '/metadata/{key}'), ('POST', _A)]),
    base.rule(IMAGE_METADATA_SHOW, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show volume_image_metadata (what a volume made from an '
              'image knows of it) in volume responses.',
              [('GET', _V), ('GET', '/volumes/detail')]),
    base.rule(IMAGE_METADATA_SET, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Set keys of a volume\'s image metadata '
              '(os-set_image_metadata).', [('POST', _A)]),
    base.rule(IMAGE_METADATA_REMOVE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Remove a key of a volume\'s image metadata '
              '(os-unset_image_metadata).', [('POST', _A)]),
]


def list_rules():
    return rules
