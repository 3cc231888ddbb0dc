"""Policy rules of /flavors (Nova's names and defaults).

Listing and showing flavors checks no rule, as in Nova: any
authenticated caller may read the public flavors.
"""

from tether.policies.compute import base

CREATE = 'os_compute_api:os-flavor-manage:create'
DELETE = 'os_compute_api:os-flavor-manage:delete'
UPDATE = 'os_compute_api:os-flavor-manage:update'
# Nova's rule of GET /flavors/{id}/os-extra_specs; from 2.61 it also
# decides whether flavor responses carry ``extra_specs``.
EXTRA_SPECS_INDEX = 'os_compute_api:os-flavor-extra-specs:index'

rules = [
    base.rule(CREATE, base.ADMIN, 'Create a flavor.',
              [('POST', '/flavors')]),
    base.rule(DELETE, base.ADMIN, 'Delete a flavor.',
              [('DELETE', '/flavors/{flavor_id}')]),
    base.rule(UPDATE, base.ADMIN, 'Update the description of a flavor.',
              [('PUT', '/flavors/{flavor_id}')]),
    base.rule(EXTRA_SPECS_INDEX, base.PROJECT_READER_OR_ADMIN,
              'List the extra specs of a flavor; show them in the flavor '
              'detail, show, create and update responses from 2.61.',
              [('GET', '/flavors/{flavor_id}/os-extra_specs'),
               ('GET', '/flavors/detail'), ('GET', '/flavors/{flavor_id}'),
               ('POST', '/flavors'), ('PUT', '/flavors/{flavor_id}')]),
]


def list_rules():
    return rules
