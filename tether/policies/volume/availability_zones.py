"""Policy rules for the availability zone list (os-availability-zone)."""

from tether.policies import base

LIST = 'volume_extension:availability_zone_list'

# Cinder checks no policy here; tether names one so that every operation
# has a documented default, open to any reader.
rules = [
    base.rule(LIST, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'List the availability zones of the volume services.',
              [('GET', '/os-availability-zone')]),
]


def list_rules():
    return rules
