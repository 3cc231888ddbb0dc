"""JSON schemas of the access lists of private flavors (Nova's):
``addTenantAccess`` and ``removeTenantAccess`` name one project."""

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
