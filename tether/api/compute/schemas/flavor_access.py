"""JSON schemas of the access lists of private flavors (Nova's):
``addTenantAccess`` and ``removeTenantAccess`` name one project."""

from tether.api import validation

ANY_QUERY = validation.IGNORED_QUERY


def _action(name):
    return {
        'type': 'object',
        'properties': {name: {
            'type': 'object',
            'properties': {'tenant': {
                'type': 'string', 'minLength': 1, 'maxLength': 255,
                'description': 'a project ID of 1 to 255 characters'}},
            'required': ['tenant'],
            'additionalProperties': False,
        }},
        'required': [name],
        'additionalProperties': False,
    }


ADD_TENANT_ACCESS = _action('addTenantAccess')
REMOVE_TENANT_ACCESS = _action('removeTenantAccess')
