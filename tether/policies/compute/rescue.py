"""Policy rules of the server actions rescue and unrescue (Nova's names
and defaults)."""

from tether.policies.compute import base

RESCUE = 'os_compute_api:os-rescue'
UNRESCUE = 'os_compute_api:os-unrescue'

rules = [
    base.rule(RESCUE, base.PROJECT_MEMBER_OR_ADMIN,
              'Rescue a server: its guest boots from a rescue image, its '
              'own disks attached after it.',
              [('POST', '/servers/{server_id}/action (rescue)')]),
    base.rule(UNRESCUE, base.PROJECT_MEMBER_OR_ADMIN,
              'Unrescue a rescued server: its guest boots from its own '
              'disks again.',
              [('POST', '/servers/{server_id}/action (unrescue)')]),
]


def list_rules():
    return rules
