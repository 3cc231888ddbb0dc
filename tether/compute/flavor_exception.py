"""Exceptions of the compute service about flavors' extra specs and
access lists (``/flavors/{id}/os-extra_specs``,
``/flavors/{id}/os-flavor-access``, ``addTenantAccess``)."""

from tether import exception


class FlavorExtraSpecNotFound(exception.NotFound):
    msg_fmt = 'Flavor %(flavor_id)s has no extra specs with key %(key)s.'
    error_code = 'compute.flavor.extra_spec_not_found'


class FlavorExtraSpecInvalid(exception.Invalid):
    msg_fmt = 'Validation failed; %(reason)s.'
    error_code = 'compute.flavor.extra_spec_invalid'


class FlavorExtraSpecUpdateCreateFailed(exception.Conflict):
    msg_fmt = ('The extra specs of flavor %(flavor_id)s changed while '
               'they were being updated; try again.')
    error_code = 'compute.flavor.extra_specs_changed'


class FlavorAccessPublic(exception.Conflict):
    msg_fmt = 'Can not add access to a public flavor.'
    error_code = 'compute.flavor.access_public'


class FlavorAccessListPublic(exception.NotFound):
    msg_fmt = 'Access list not available for public flavors.'
    error_code = 'compute.flavor.access_list_public'


class FlavorAccessExists(exception.Conflict):
    msg_fmt = ('Flavor access already exists for flavor %(flavor_id)s and '
               'project %(project_id)s combination.')
    error_code = 'compute.flavor.access_exists'


class FlavorAccessNotFound(exception.NotFound):
    msg_fmt = ('Flavor access not found for %(flavor_id)s / '
               '%(project_id)s combination.')
    error_code = 'compute.flavor.access_not_found'
