"""Policy rules of the server actions that snapshot a server into an
image, createImage and createBackup (Nova's names and defaults)."""

from tether.policies.compute import base

CREATE_IMAGE = 'os_compute_api:servers:create_image'
CREATE_IMAGE_VOLUME_BACKED = \
    'os_compute_api:servers:create_image:allow_volume_backed'
CREATE_BACKUP = 'os_compute_api:os-create-backup'

rules = [
    base.rule(CREATE_IMAGE, base.PROJECT_MEMBER_OR_ADMIN,
              'Snapshot a server into a new image.',
              [('POST', '/servers/{server_id}/action (createImage)')]),
    base.rule(CREATE_IMAGE_VOLUME_BACKED, base.PROJECT_MEMBER_OR_ADMIN,
              'Snapshot a volume-backed server into a new image: a '
              'snapshot of each of its volumes, named by the image.',
              [('POST', '/servers/{server_id}/action (createImage)')]),
    base.rule(CREATE_BACKUP, base.PROJECT_MEMBER_OR_ADMIN,
              'Back a server up into a new image, keeping the newest '
              '"rotation" backups of its type.',
              [('POST', '/servers/{server_id}/action (createBackup)')]),
]


def list_rules():
    return rules
