"""Policy rules of /os-assisted-volume-snapshots (the volume service
only: Nova's names and defaults)."""

from tether.policies.compute import base

ROOT = 'os_compute_api:os-assisted-volume-snapshots:%s'
CREATE = ROOT % 'create'
DELETE = ROOT % 'delete'

rules = [
    base.rule(CREATE, base.SERVICE_ROLE,
              'Take a snapshot of a volume attached to a server, in the '
              'hypervisor that holds its files; meant for the volume '
              'service.',
              [('POST', '/os-assisted-volume-snapshots')]),
    base.rule(DELETE, base.SERVICE_ROLE,
              'Merge the files of a snapshot of a volume attached to a '
              'server, in the hypervisor that holds them; meant for the '
              'volume service.',
              [('DELETE', '/os-assisted-volume-snapshots/{snapshot_id}')]),
]


def list_rules():
    return rules
