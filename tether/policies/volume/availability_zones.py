"""Policy rules for the availability zone list (os-availability-zone)."""

from tether.policies import base

LIST = 'volume_extension:availability_zone_list'

# Cinder checks no policy here; tether names one so that every operation
# has a documented default.
rules = [
    base.rule(LIST, base.READER_OR_SERVICE,
              'List the availability zones of the volume services. Cinder '
              'checks no rule here; tether refuses a token that has none '
              'of the roles reader, admin or service.',
              [('GET', '/os-availability-zone')]),
]


def list_rules():
    return rules
