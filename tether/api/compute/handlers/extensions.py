"""Handlers of the compute API's /extensions: the Nova API extensions
tether serves, listed and shown by alias."""

from tether.api.compute import extensions
from tether.api.compute.schemas import extensions as schema
from tether.api import fault
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.policies.compute import extensions as policy


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.ANY_QUERY)
def list_extensions(req):
    req.context.can(policy.BASE, {})
    return wsgi.json_response({'extensions': [
        extensions.as_json(*entry) for entry in extensions.EXTENSIONS]})


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.ANY_QUERY)
def show_extension(req):
    req.context.can(policy.BASE, {})
    alias = req.urlvars['alias']
    found = extensions.find(alias)
    if found is None:
        raise fault.HTTPError(404, 'Extension %s could not be found: '
                                   'tether serves %d extensions, listed at '
                                   '/extensions.'
                              % (alias[:64], len(extensions.EXTENSIONS)))
    return wsgi.json_response({'extension': found})
