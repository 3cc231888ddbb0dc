"""Exceptions of the compute service about flavors' extra specs
(``/flavors/{id}/os-extra_specs``)."""

from tether import exception


class FlavorExtraSpecNotFound(exception.NotFound):
    msg_fmt = 'Flavor %(flavor_id)s has no extra specs with key %(key)s.'
    error_code = 'compute.flavor.extra_spec_not_found'


class FlavorExtraSpecUpdateCreateFailed(exception.Conflict):
    msg_fmt = ('The extra specs of flavor %(flavor_id)s changed while '
               'they were being updated; try again.')
    error_code = 'compute.flavor.extra_specs_changed'
