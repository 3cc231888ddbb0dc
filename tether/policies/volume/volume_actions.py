"""Policy rules of the actions on a volume (os-extend, the completion,
os-reset_status, os-volume_upload_image, os-reimage)."""

from tether.policies import base

EXTEND = 'volume:extend'
EXTEND_ATTACHED = 'volume:extend_attached_volume'
RESET_STATUS = 'volume_extension:volume_admin_actions:reset_status'
EXTEND_COMPLETION = ('volume_extension:volume_admin_actions:'
                     'extend_volume_completion')
UPLOAD_IMAGE = 'volume_extension:volume_actions:upload_image'
UPLOAD_PUBLIC = 'volume_extension:volume_actions:upload_public'
RETYPE = 'volume:retype'
REIMAGE = 'volume:reimage'
REIMAGE_RESERVED = 'volume:reimage_reserved'

_A = '/volumes/{volume_id}/action'

rules = [
    base.rule(EXTEND, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Extend a volume (os-extend).', [('POST', _A)]),
    base.rule(EXTEND_ATTACHED, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Extend an attached volume; operators disable online extend '
              'here.', [('POST', _A)]),
    base.rule(RESET_STATUS, base.RULE_ADMIN_API,
              'Reset the status of a volume (os-reset_status).',
              [('POST', _A)]),
    base.rule(EXTEND_COMPLETION, base.RULE_SERVICE_OR_ADMIN,
              'Complete an extend that waited for the compute host '
              '(os-extend_volume_completion; the compute service calls it). '
              'Cinder allows administrators only; tether also the service '
              'role, which the compute service\'s user has.',
              [('POST', _A)]),
    base.rule(RETYPE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Give a volume another volume type (os-retype).',
              [('POST', _A)]),
    base.rule(UPLOAD_IMAGE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Upload a volume to a new image (os-volume_upload_image).',
              [('POST', _A)]),
    base.rule(UPLOAD_PUBLIC, base.RULE_ADMIN_API,
              'Upload a volume to a new image of public visibility.',
              [('POST', _A)]),
    base.rule(REIMAGE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Re-image a volume that is available or in error '
              '(os-reimage).', [('POST', _A)]),
    base.rule(REIMAGE_RESERVED, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Re-image a reserved volume (os-reimage with '
              'reimage_reserved; the compute service\'s rebuild of a '
              'volume-backed server).', [('POST', _A)]),
]


def list_rules():
    return rules
