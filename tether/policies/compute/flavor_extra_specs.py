"""Policy rules of /flavors/{flavor_id}/os-extra_specs (Nova's names and
defaults): readers of a project read them, administrators change them.
The index rule also decides whether flavor responses carry
``extra_specs`` from 2.61 (``flavors.EXTRA_SPECS_INDEX``)."""

from tether.policies.compute import base
from tether.policies.compute import flavors

PREFIX = 'os_compute_api:os-flavor-extra-specs:%s'
INDEX = flavors.EXTRA_SPECS_INDEX
SHOW = PREFIX % 'show'
CREATE = PREFIX % 'create'
UPDATE = PREFIX % 'update'
DELETE = PREFIX % 'delete'

_ALL = '/flavors/{flavor_id}/os-extra_specs'
_ONE = '/flavors/{flavor_id}/os-extra_specs/{flavor_extra_spec_key}'

rules = [
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show one extra spec of a flavor.', [('GET', _ONE)]),
    base.rule(CREATE, base.ADMIN,
              'Add or change extra specs of a flavor.', [('POST', _ALL)]),
    base.rule(UPDATE, base.ADMIN,
              'Set one extra spec of a flavor.', [('PUT', _ONE)]),
    base.rule(DELETE, base.ADMIN,
              'Delete one extra spec of a flavor.', [('DELETE', _ONE)]),
]


def list_rules():
    return rules
