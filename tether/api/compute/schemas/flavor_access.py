"""JSON schemas of the access lists of private flavors (Nova's):
``addTenantAccess`` and ``removeTenantAccess`` name one project."""

from tether.api import response_types as rt
from tether.api import validation

ANY_QUERY = validation.IGNORED_QUERY


_TENANT = {
    'type': 'object',
    'properties': {'tenant': {
        'type': 'string', 'minLength': 1, 'maxLength': 255,
        'description': 'a project ID of 1 to 255 characters'}},
    'required': ['tenant'],
    'additionalProperties': False,
}

ADD_TENANT_ACCESS = validation.action('addTenantAccess', _TENANT)
REMOVE_TENANT_ACCESS = validation.action('removeTenantAccess', _TENANT)


# Responses ------------------------------------------------------------------

# The list, and what addTenantAccess and removeTenantAccess answer: the
# projects given access to the flavor, after the change.
ACCESS_RESPONSE = rt.wrapped('flavor_access', {
    'type': 'array',
    'items': rt.obj({'flavor_id': {'type': 'string'},
                     'tenant_id': {'type': 'string'}}),
})
