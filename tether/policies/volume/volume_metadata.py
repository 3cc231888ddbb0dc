"""Policy rules of a volume's metadata."""

from tether.policies import base

GET_METADATA = 'volume:get_volume_metadata'
CREATE_METADATA = 'volume:create_volume_metadata'
UPDATE_METADATA = 'volume:update_volume_metadata'
DELETE_METADATA = 'volume:delete_volume_metadata'
IMAGE_METADATA_SHOW = 'volume_extension:volume_image_metadata:show'

_V = '/volumes/{volume_id}'

rules = [
    base.rule(GET_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show a volume\'s metadata.',
              [('GET', _V + '/metadata'), ('GET', _V + '/metadata/{key}')]),
    base.rule(CREATE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Add metadata to a volume.', [('POST', _V + '/metadata')]),
    base.rule(UPDATE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Replace a volume\'s metadata or one key.',
              [('PUT', _V + '/metadata'), ('PUT', _V + '/metadata/{key}')]),
    base.rule(DELETE_METADATA, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete a key of a volume\'s metadata.',
              [('DELETE', _V + '/metadata/{key}')]),
    base.rule(IMAGE_METADATA_SHOW, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show volume_image_metadata (what a volume made from an '
              'image knows of it) in volume responses.',
              [('GET', _V), ('GET', '/volumes/detail')]),
]


def list_rules():
    return rules
